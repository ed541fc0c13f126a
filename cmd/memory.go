package cmd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/store"
)

// NewCmdMemory builds `tavo memory` and its subcommands.
func NewCmdMemory(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "memory",
		Short: "Show and edit long-term memory (what the model's memory tools see)",
		Long: fmt.Sprintf(`Show and edit tavo's long-term memory: a list of notes kept across sessions,
the same the model reads and writes with tavo_memory_current,
tavo_memory_update and tavo_memory_append, and note by note, by id, with
tavo_memory_save, _edit, _delete, _list and _search. While memory is enabled, the notes
are added to the system prompt of every run; disabled, they are kept but not
injected, and the model's memory tools still work.

Notes are trimmed and must not be blank; at most %d notes of %d characters,
%d KiB in all. Exit status: 0 on success, 1 when the store fails, 2 on a
usage error such as a blank note or a limit exceeded.`, store.MaxMemoryItems, store.MaxMemoryItemChars, store.MaxMemoryBytes>>10),
		Example: `  tavo memory append 'Prefers answers in British English'
  grep -v '^#' notes.txt | tavo memory append
  tavo memory set --enable
  tavo memory show -o json --jq '.memories[]'
  tavo memory search staging
  tavo memory rm m12`,
	}
	c.AddCommand(NewCmdMemoryShow(f, nil), NewCmdMemoryAppend(f, nil), NewCmdMemorySet(f, nil), NewCmdMemoryClear(f, nil),
		NewCmdMemoryLs(f, nil), NewCmdMemorySearch(f, nil), NewCmdMemoryRm(f, nil))
	return c
}

// MemoryShowOptions are the inputs of `tavo memory show`.
type MemoryShowOptions struct {
	Factory *Factory
	Ctx     context.Context
}

// NewCmdMemoryShow builds `tavo memory show`; runF, when not nil, runs
// instead of memoryShowRun (for tests).
func NewCmdMemoryShow(f *Factory, runF func(*MemoryShowOptions) error) *cobra.Command {
	o := &MemoryShowOptions{Factory: f}
	return &cobra.Command{
		Use:   "show",
		Short: "Print whether memory is enabled and its notes, numbered",
		Long: `Print "enabled: true" or "enabled: false", then the notes, numbered from 1
(a note's further lines are indented). -o json prints {enabled, memories}.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Ctx = cmd.Context()
			return runOr(runF, memoryShowRun, o)
		},
		Example: `  tavo memory show
  tavo memory show -o json --jq '.memories[]'`,
	}
}

func memoryShowRun(o *MemoryShowOptions) error {
	out, st, err := storeOutputContext(o.Ctx, o.Factory)
	if err != nil {
		return err
	}
	defer st.Close()
	m, err := st.Memory(o.Ctx)
	if err != nil {
		return failedError(err)
	}
	if out.Structured() {
		return out.WriteValue(m)
	}
	w := bufio.NewWriter(o.Factory.IO.Out)
	fmt.Fprintf(w, "enabled: %t\n", m.Enabled)
	for i, it := range m.Items {
		num := fmt.Sprintf("%d. ", i+1)
		fmt.Fprintf(w, "%s%s\n", num, strings.ReplaceAll(it, "\n", "\n"+strings.Repeat(" ", len(num))))
	}
	return w.Flush()
}

// MemoryAppendOptions are the inputs of `tavo memory append`.
type MemoryAppendOptions struct {
	Factory *Factory
	Ctx     context.Context
	// Args are the notes, or none or "-" to read them from stdin.
	Args []string
}

// NewCmdMemoryAppend builds `tavo memory append`; runF, when not nil, runs
// instead of memoryAppendRun (for tests).
func NewCmdMemoryAppend(f *Factory, runF func(*MemoryAppendOptions) error) *cobra.Command {
	o := &MemoryAppendOptions{Factory: f}
	return &cobra.Command{
		Use:   "append [TEXT...]",
		Short: "Add notes to memory; never enables injection",
		Long: `Add notes after the existing ones: one note per argument, or, with no
arguments (or "-") and stdin not a terminal, one note per non-blank line of
stdin. Append never changes whether memory is enabled: turn injection on with
"tavo memory set --enable". Empty stdin appends nothing. -o json prints the
new {enabled, memories}.`,
		Example: `  tavo memory append 'Deploys happen on Tuesdays' 'The staging host is stg-1'
  printf 'one\ntwo\n' | tavo memory append`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Ctx, o.Args = cmd.Context(), args
			return runOr(runF, memoryAppendRun, o)
		},
	}
}

func memoryAppendRun(o *MemoryAppendOptions) error {
	f := o.Factory
	out, err := textOutput(f)
	if err != nil {
		return err
	}
	items, fromStdin, err := memoryItems(f, o.Args, true)
	if err != nil {
		return err
	}
	if fromStdin && len(items) == 0 {
		note(f, "nothing to append: stdin had no non-blank line")
		return nil
	}
	// A bad note is refused before the store is opened; the limits are
	// checked by the store as it appends.
	if _, err := store.CleanMemoryItems(items); err != nil {
		return usageError(err)
	}
	st, err := openStore(o.Ctx, f)
	if err != nil {
		return err
	}
	defer st.Close()
	m, err := st.AppendMemory(o.Ctx, items)
	if err != nil {
		return memoryError(err)
	}
	return memoryDone(f, out, m)
}

// MemorySetOptions are the inputs of `tavo memory set`.
type MemorySetOptions struct {
	Factory *Factory
	Ctx     context.Context
	Enable  bool
	Disable bool
	// Args are the notes that replace the current ones ("-" reads stdin);
	// none keeps the notes.
	Args []string
}

// NewCmdMemorySet builds `tavo memory set`; runF, when not nil, runs
// instead of memorySetRun (for tests).
func NewCmdMemorySet(f *Factory, runF func(*MemorySetOptions) error) *cobra.Command {
	o := &MemorySetOptions{Factory: f}
	c := &cobra.Command{
		Use:   "set [--enable|--disable] [ITEM...]",
		Short: "Replace the notes and/or turn injection on or off",
		Long: `Replace every note with the ITEMs given (one note each; "-" reads one note
per non-blank line of stdin), turn injection on (--enable) or off (--disable),
or both at once. Whatever is not given is kept. -o json prints the new
{enabled, memories}.`,
		Example: `  tavo memory set --enable
  tavo memory set --disable
  tavo memory set 'Only this note'
  tavo memory show -o json --jq '.memories[]' | grep -v staging | tavo memory set -`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Ctx, o.Args = cmd.Context(), args
			return runOr(runF, memorySetRun, o)
		},
	}
	c.Flags().BoolVar(&o.Enable, "enable", false, "inject the notes into the system prompt")
	c.Flags().BoolVar(&o.Disable, "disable", false, "stop injecting the notes (they are kept)")
	return c
}

func memorySetRun(o *MemorySetOptions) error {
	f := o.Factory
	if o.Enable && o.Disable {
		return usageError(errors.New("--enable and --disable cannot be used together"))
	}
	if !o.Enable && !o.Disable && len(o.Args) == 0 {
		return usageError(errors.New("give the notes to keep, --enable or --disable (see tavo memory set --help)"))
	}
	out, err := textOutput(f)
	if err != nil {
		return err
	}
	var u store.MemoryUpdate
	if o.Enable || o.Disable {
		enable := o.Enable
		u.Enabled = &enable
	}
	if len(o.Args) > 0 {
		items, _, err := memoryItems(f, o.Args, false)
		if err != nil {
			return err
		}
		if _, err := store.CleanMemoryItems(items); err != nil {
			return usageError(err)
		}
		u.Items = &items
	}
	st, err := openStore(o.Ctx, f)
	if err != nil {
		return err
	}
	defer st.Close()
	m, err := st.SetMemory(o.Ctx, u)
	if err != nil {
		return memoryError(err)
	}
	return memoryDone(f, out, m)
}

// MemoryClearOptions are the inputs of `tavo memory clear`.
type MemoryClearOptions struct {
	Factory *Factory
	Ctx     context.Context
}

// NewCmdMemoryClear builds `tavo memory clear`; runF, when not nil, runs
// instead of memoryClearRun (for tests).
func NewCmdMemoryClear(f *Factory, runF func(*MemoryClearOptions) error) *cobra.Command {
	o := &MemoryClearOptions{Factory: f}
	return &cobra.Command{
		Use:   "clear",
		Short: "Remove every note; enabled stays as it is",
		Long: `Remove every note. Whether memory is enabled does not change, so notes
appended later are injected if it was on. -o json prints the new {enabled, memories}.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Ctx = cmd.Context()
			return runOr(runF, memoryClearRun, o)
		},
		Example: `  tavo memory clear
  tavo memory show -o json > memory.json && tavo memory clear`,
	}
}

func memoryClearRun(o *MemoryClearOptions) error {
	out, st, err := storeOutputContext(o.Ctx, o.Factory)
	if err != nil {
		return err
	}
	defer st.Close()
	m, err := st.SetMemory(o.Ctx, store.MemoryUpdate{Items: &[]string{}})
	if err != nil {
		return memoryError(err)
	}
	return memoryDone(o.Factory, out, m)
}

// memoryItems returns the notes of a command line: the arguments, or the
// non-blank lines of stdin when the only argument is "-" or, if
// stdinDefault, when there is none and stdin is not a terminal.
func memoryItems(f *Factory, args []string, stdinDefault bool) (items []string, fromStdin bool, err error) {
	switch {
	case len(args) == 1 && args[0] == "-":
	case len(args) > 0:
		return args, false, nil
	case !stdinDefault:
		return nil, false, nil
	case f.IO.IsStdinTTY():
		return nil, false, usageError(errors.New("give the notes as arguments, or pipe them in, one per line"))
	}
	items, err = readLines(f.IO.In)
	if err != nil {
		return nil, true, usageError(err)
	}
	return items, true, nil
}

// readLines reads the non-blank lines of r.
func readLines(r io.Reader) ([]string, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var lines []string
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			lines = append(lines, line)
		}
	}
	if errors.Is(sc.Err(), bufio.ErrTooLong) {
		return nil, errors.New("reading stdin: a line is longer than 1 MiB")
	}
	if sc.Err() != nil {
		return nil, fmt.Errorf("reading stdin: %w", sc.Err())
	}
	return lines, nil
}

// memoryError turns a failed memory write into the command's exit status:
// a broken rule (a bad note, a limit) is a usage error in the rule's own
// words; anything else is the store failing.
func memoryError(err error) error {
	if r := store.Refusal(err); r != nil {
		return usageError(r)
	}
	return failedError(err)
}

// memoryDone reports a write: the new memory with -o json, else a short
// note on a terminal's stderr (nothing in a pipe).
func memoryDone(f *Factory, out *cli.Output, m store.Memory) error {
	if out.Structured() {
		return out.WriteValue(m)
	}
	if f.IO.IsStderrTTY() {
		status := "enabled"
		if !m.Enabled {
			status = "disabled (the notes are not injected; tavo memory set --enable turns it on)"
		}
		note(f, "memory: %d notes, %s", len(m.Items), status)
	}
	return nil
}
