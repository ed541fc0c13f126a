package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/files"
)

// FileOptions are the flags every `tavo file` subcommand shares.
type FileOptions struct {
	Scope   string
	Session string
}

// NewCmdFile builds `tavo file` and its subcommands.
func NewCmdFile(f *Factory) *cobra.Command {
	o := &FileOptions{}
	c := &cobra.Command{
		Use:   "file",
		Short: "List, read, write and delete stored files (what the model's file tools see)",
		Long: `Work with tavo's file store, the files the model reads and writes through
tavo_file_save, tavo_file_load, tavo_file_list, tavo_file_exists and
tavo_file_delete. Files live in the global scope, shared by every session, or
in the chat scope of one session (--session ID, the id in run.started).
--scope defaults to chat when --session is given, else global.

A name is one file name: no '/', '\', ':', NUL or control characters, not
'.' or '..'. Exit status: 0 on success, 1 when a file is missing or an
operation failed, 2 on a usage error such as an invalid name.`,
		Example: `  printf 'hello' | tavo file put notes.txt
  tavo file get notes.txt | wc -c
  tavo file put --session ses_01J… data.csv ./data.csv
  tavo file exists report.md && tavo file get report.md > report.md
  tavo file ls --scope global -o json --jq '.files[].name'`,
	}
	pf := c.PersistentFlags()
	pf.StringVar(&o.Scope, "scope", "", "chat|global (default: chat with --session, else global)")
	_ = c.RegisterFlagCompletionFunc("scope", completeScope)
	pf.StringVar(&o.Session, "session", "", "the session whose chat files to use")
	_ = c.RegisterFlagCompletionFunc("session", completeSessions(f))
	c.AddCommand(NewCmdFileLs(f, o, nil), NewCmdFileGet(f, o, nil), NewCmdFilePut(f, o, nil), NewCmdFileRm(f, o, nil), NewCmdFileExists(f, o, nil))
	return c
}

// location resolves --scope and --session.
func (o *FileOptions) location() (files.Location, error) {
	scope := files.Scope(o.Scope)
	switch {
	case o.Scope == "" && o.Session != "":
		scope = files.ScopeChat
	case o.Scope == "":
		scope = files.ScopeGlobal
	case scope != files.ScopeChat && scope != files.ScopeGlobal:
		return files.Location{}, usageError(fmt.Errorf("--scope must be chat or global, got %q", o.Scope))
	}
	if scope == files.ScopeGlobal && o.Session != "" {
		return files.Location{}, usageError(errors.New("--session selects chat files; drop it or use --scope chat"))
	}
	if scope == files.ScopeChat && o.Session == "" {
		return files.Location{}, usageError(errors.New("--scope chat needs --session ID (the session id from run.started)"))
	}
	loc, err := files.NewLocation(scope, o.Session)
	if err != nil {
		return files.Location{}, usageError(err)
	}
	return loc, nil
}

// requireSession checks that --session, when given, names a session (exit
// 4 when not), so no command stores or lists chat files of a session that
// does not exist. It runs after the flags and names are checked.
func (o *FileOptions) requireSession(ctx context.Context, f *Factory) error {
	if o.Session == "" {
		return nil
	}
	st, err := f.Store(ctx)
	if err != nil {
		return failedError(err)
	}
	return checkSession(ctx, st, o.Session)
}

// fileError turns a store error into the command's exit status: a bad
// argument is a usage error (2), anything else a failure (1).
func fileError(err error) error {
	if errors.Is(err, files.ErrInvalid) {
		return usageError(err)
	}
	return failedError(err)
}

// target resolves the scope flags and checks names, so that a command
// refuses an invalid name before it does anything.
func (o *FileOptions) target(names ...string) (files.Location, error) {
	loc, err := o.location()
	if err != nil {
		return files.Location{}, err
	}
	for _, n := range names {
		if err := files.CheckName(n); err != nil {
			return files.Location{}, usageError(err)
		}
	}
	return loc, nil
}

// FileLsOptions are the inputs of `tavo file ls`.
type FileLsOptions struct {
	*FileOptions
	Factory *Factory
	Ctx     context.Context
	Limit   int
	Cursor  string
	All     bool
}

// NewCmdFileLs builds `tavo file ls` on the shared scope flags o; runF,
// when not nil, runs instead of fileLsRun (for tests).
func NewCmdFileLs(f *Factory, o *FileOptions, runF func(*FileLsOptions) error) *cobra.Command {
	opts := &FileLsOptions{FileOptions: o, Factory: f}
	c := &cobra.Command{
		Use:   "ls",
		Short: "List files, sorted by name",
		Long: `List the files of a scope, sorted by name (case-sensitive), one page at a time.
On a terminal: a table NAME SIZE MODIFIED MIME. In a pipe: one file per line,
name, size in bytes, modification time (RFC 3339, UTC) and MIME type separated
by tabs. -o json prints {files, next_cursor}; -o ndjson one file per line.
When more files remain, the command to get the next page is printed on stderr
(text) or next_cursor is set (json); --all lists every page.`,
		Example: `  tavo file ls --scope global
  tavo file ls --session ses_01J… --limit 20
  tavo file ls --all | cut -f1`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx = cmd.Context()
			return runOr(runF, fileLsRun, opts)
		},
	}
	c.Flags().IntVarP(&opts.Limit, "limit", "n", files.DefaultListLimit, fmt.Sprintf("files per page (1-%d)", files.MaxListLimit))
	c.Flags().StringVar(&opts.Cursor, "cursor", "", "continue a listing from its next_cursor")
	c.Flags().BoolVar(&opts.All, "all", false, "list every page")
	return c
}

func fileLsRun(opts *FileLsOptions) error {
	f := opts.Factory
	loc, err := opts.location()
	if err != nil {
		return err
	}
	if err := checkLimit(opts.Limit, files.MaxListLimit); err != nil {
		return err
	}
	if err := opts.requireSession(opts.Ctx, f); err != nil {
		return err
	}
	out, err := textOutput(f)
	if err != nil {
		return err
	}
	ctx, stop := signalContext(opts.Ctx)
	defer stop()
	store := f.Files()
	page := files.Page{Files: []files.Entry{}}
	next := opts.Cursor
	for {
		p, err := store.List(ctx, loc, files.ListOptions{Limit: opts.Limit, Cursor: next})
		if err != nil {
			return fileError(err)
		}
		page.Files = append(page.Files, p.Files...)
		next = p.NextCursor
		if !opts.All || next == "" {
			break
		}
	}
	page.NextCursor = next
	if out.Structured() {
		if err := cli.WritePage(out, "files", fileRows(page.Files), page.NextCursor); err != nil || out.Format == cli.FormatJSON {
			return err
		}
	} else if err := printFileTable(f, page.Files); err != nil {
		return err
	}
	if page.NextCursor != "" && !f.Quiet {
		fmt.Fprintf(f.IO.ErrOut, "tavo: more files: tavo file ls %s--cursor %s\n", opts.flags(loc), page.NextCursor)
	}
	return nil
}

// flags renders the scope flags that select loc, for hints.
func (o *FileOptions) flags(loc files.Location) string {
	if loc.Scope == files.ScopeChat {
		return "--session " + loc.Session + " "
	}
	return "--scope global "
}

// printFileTable prints entries: aligned for people, exact for pipes.
func printFileTable(f *Factory, entries []files.Entry) error {
	tty := f.IO.IsStdoutTTY()
	if tty && len(entries) == 0 {
		fmt.Fprintln(f.IO.ErrOut, "no files")
		return nil
	}
	t := cli.NewTable(f.IO, "NAME", "SIZE", "MODIFIED", "MIME")
	for _, e := range entries {
		if tty {
			t.AddRow(e.Name, humanSize(e.Size), e.ModifiedAt.Local().Format("2006-01-02 15:04"), e.MIMEType)
		} else {
			t.AddRow(e.Name, fmt.Sprint(e.Size), e.ModifiedAt.UTC().Format("2006-01-02T15:04:05.000Z"), e.MIMEType)
		}
	}
	return t.Render()
}

// humanSize renders a size for people: 512 B, 1.5 KiB, 20 MiB.
func humanSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v, suffix := float64(n), ""
	for _, s := range []string{"KiB", "MiB", "GiB", "TiB"} {
		v /= unit
		suffix = s
		if v < unit {
			break
		}
	}
	s := fmt.Sprintf("%.1f", v)
	return strings.TrimSuffix(s, ".0") + " " + suffix
}

// FileGetOptions are the inputs of `tavo file get`.
type FileGetOptions struct {
	*FileOptions
	Factory *Factory
	Ctx     context.Context
	Name    string
}

// NewCmdFileGet builds `tavo file get` on the shared scope flags o; runF,
// when not nil, runs instead of fileGetRun (for tests).
func NewCmdFileGet(f *Factory, o *FileOptions, runF func(*FileGetOptions) error) *cobra.Command {
	opts := &FileGetOptions{FileOptions: o, Factory: f}
	return &cobra.Command{
		Use:   "get NAME",
		Short: "Write a file's bytes to stdout",
		Long:  `Write a file's content to stdout, byte for byte, whatever its size or type.`,
		Example: `  tavo file get report.md > report.md
  tavo file get --session ses_01J… chart.png | base64`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx, opts.Name = cmd.Context(), args[0]
			return runOr(runF, fileGetRun, opts)
		},
		ValidArgsFunction: firstArgOnly(completeFiles(f, o)),
	}
}

func fileGetRun(opts *FileGetOptions) error {
	loc, err := opts.target(opts.Name)
	if err != nil {
		return err
	}
	if err := opts.requireSession(opts.Ctx, opts.Factory); err != nil {
		return err
	}
	ctx, stop := signalContext(opts.Ctx)
	defer stop()
	rc, _, err := opts.Factory.Files().Reader(ctx, loc, opts.Name)
	if err != nil {
		return fileError(err)
	}
	defer rc.Close()
	if _, err := io.Copy(opts.Factory.IO.Out, rc); err != nil {
		return failedError(fmt.Errorf("writing %s to stdout: %w", loc.Path(opts.Name), err))
	}
	return nil
}

// FilePutOptions are the inputs of `tavo file put`.
type FilePutOptions struct {
	*FileOptions
	Factory *Factory
	Ctx     context.Context
	Name    string
	// Path is the local file to read; empty or "-" reads stdin.
	Path string
}

// NewCmdFilePut builds `tavo file put` on the shared scope flags o; runF,
// when not nil, runs instead of filePutRun (for tests).
func NewCmdFilePut(f *Factory, o *FileOptions, runF func(*FilePutOptions) error) *cobra.Command {
	opts := &FilePutOptions{FileOptions: o, Factory: f}
	return &cobra.Command{
		Use:   "put NAME [PATH]",
		Short: "Save stdin or a local file as NAME",
		Long: fmt.Sprintf(`Save the content of PATH, or of stdin when PATH is absent or "-", as the file
NAME, replacing any file of that name. The write is atomic: readers see the
old file or the new one. At most %d MiB a file. -o json prints the new entry.`, files.DefaultMaxFileSize>>20),
		Example: `  printf 'hi' | tavo file put greeting.txt
  tavo file put --session ses_01J… data.csv ./export/data.csv`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx, opts.Name, opts.Path = cmd.Context(), args[0], ""
			if len(args) == 2 {
				opts.Path = args[1]
			}
			return runOr(runF, filePutRun, opts)
		},
	}
}

func filePutRun(opts *FilePutOptions) error {
	f := opts.Factory
	loc, err := opts.target(opts.Name)
	if err != nil {
		return err
	}
	if err := opts.requireSession(opts.Ctx, f); err != nil {
		return err
	}
	out, err := textOutput(f)
	if err != nil {
		return err
	}
	var in io.Reader = f.IO.In
	if opts.Path != "" && opts.Path != "-" {
		fh, err := os.Open(opts.Path)
		if err != nil {
			return failedError(fmt.Errorf("reading %s: %w", opts.Path, errors.Unwrap(err)))
		}
		defer fh.Close()
		in = fh
	} else if f.IO.IsStdinTTY() {
		return usageError(errors.New("put reads the content from PATH or a pipe: give PATH, or pipe data in"))
	}
	ctx, stop := signalContext(opts.Ctx)
	defer stop()
	e, err := f.Files().SaveFrom(ctx, loc, opts.Name, in)
	if err != nil {
		return fileError(err)
	}
	if out.Structured() {
		return out.WriteValue(toFileRow(e))
	}
	if f.IO.IsStderrTTY() && !f.Quiet {
		fmt.Fprintf(f.IO.ErrOut, "saved %s (%s)\n", e.Path, humanSize(e.Size))
	}
	return nil
}

// FileRmOptions are the inputs of `tavo file rm`.
type FileRmOptions struct {
	*FileOptions
	Factory *Factory
	Ctx     context.Context
	Names   []string
}

// NewCmdFileRm builds `tavo file rm` on the shared scope flags o; runF,
// when not nil, runs instead of fileRmRun (for tests).
func NewCmdFileRm(f *Factory, o *FileOptions, runF func(*FileRmOptions) error) *cobra.Command {
	opts := &FileRmOptions{FileOptions: o, Factory: f}
	return &cobra.Command{
		Use:   "rm NAME...",
		Short: "Delete files",
		Long:  `Delete files. A missing file is reported on stderr and makes the exit status 1; the others are still deleted.`,
		Example: `  tavo file rm old.txt
  tavo file ls --scope global | cut -f1 | grep '\.tmp$' | xargs tavo file rm`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx, opts.Names = cmd.Context(), args
			return runOr(runF, fileRmRun, opts)
		},
		ValidArgsFunction: completeFiles(f, o),
	}
}

func fileRmRun(opts *FileRmOptions) error {
	loc, err := opts.target(opts.Names...)
	if err != nil {
		return err
	}
	if err := opts.requireSession(opts.Ctx, opts.Factory); err != nil {
		return err
	}
	ctx, stop := signalContext(opts.Ctx)
	defer stop()
	store := opts.Factory.Files()
	var last error
	for _, name := range opts.Names {
		if err := store.Delete(ctx, loc, name); err != nil {
			if last != nil {
				printError(opts.Factory, last)
			}
			last = err
		}
	}
	if last != nil {
		return fileError(last)
	}
	return nil
}

// FileExistsOptions are the inputs of `tavo file exists`.
type FileExistsOptions struct {
	*FileOptions
	Factory *Factory
	Ctx     context.Context
	Name    string
}

// NewCmdFileExists builds `tavo file exists` on the shared scope flags o;
// runF, when not nil, runs instead of fileExistsRun (for tests).
func NewCmdFileExists(f *Factory, o *FileOptions, runF func(*FileExistsOptions) error) *cobra.Command {
	opts := &FileExistsOptions{FileOptions: o, Factory: f}
	return &cobra.Command{
		Use:   "exists NAME",
		Short: "Exit 0 when a file exists, 1 when it does not",
		Long:  `Print nothing; exit 0 when NAME is a file of the scope, 1 when it is not, 2 on a usage error.`,
		Example: `  tavo file exists notes.txt || printf 'start\n' | tavo file put notes.txt
  tavo file exists --session ses_01J… report.md && echo saved
  # exit 1 when the file does not exist, 0 when it does (docs/exit-codes.md)`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx, opts.Name = cmd.Context(), args[0]
			return runOr(runF, fileExistsRun, opts)
		},
		ValidArgsFunction: firstArgOnly(completeFiles(f, o)),
	}
}

func fileExistsRun(opts *FileExistsOptions) error {
	loc, err := opts.target(opts.Name)
	if err != nil {
		return err
	}
	if err := opts.requireSession(opts.Ctx, opts.Factory); err != nil {
		return err
	}
	ok, err := opts.Factory.Files().Exists(opts.Ctx, loc, opts.Name)
	if err != nil {
		return fileError(err)
	}
	if !ok {
		return silentExit(events.ExitFailed)
	}
	return nil
}

// fileRow is a stored file as the file commands print it: the entry the
// file tools give a model, with tavo's snake_case keys (docs/output.md);
// the tools keep the spec's mimeType and modifiedAt.
type fileRow struct {
	Path       string    `json:"path"`
	Name       string    `json:"name"`
	Size       int64     `json:"size"`
	MIMEType   string    `json:"mime_type"`
	ModifiedAt time.Time `json:"modified_at"`
}

func toFileRow(e files.Entry) fileRow {
	return fileRow{Path: e.Path, Name: e.Name, Size: e.Size, MIMEType: e.MIMEType, ModifiedAt: e.ModifiedAt}
}

func fileRows(es []files.Entry) []fileRow {
	rows := make([]fileRow, len(es))
	for i, e := range es {
		rows[i] = toFileRow(e)
	}
	return rows
}
