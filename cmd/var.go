package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/store"
)

// VarOptions are the flags every `tavo var` subcommand shares.
type VarOptions struct {
	Scope   string
	Session string
}

// NewCmdVar builds `tavo var` and its subcommands.
func NewCmdVar(f *Factory) *cobra.Command {
	o := &VarOptions{}
	c := &cobra.Command{
		Use:   "var",
		Short: "Get, set, list and delete variables (what the model's variable tools see)",
		Long: fmt.Sprintf(`Work with tavo's variables, the JSON values the model reads and writes with
tavo_var_get, tavo_var_set, tavo_var_delete and tavo_var_list. Variables live
in the global scope, shared by every session, or in the chat scope of one
session (--session ID, the id in run.started). --scope defaults to chat when
--session is given, else global.

A name is a dotted path such as user.prefs.theme: segments of letters (any script),
digits, '_' or '-' joined by single dots, at most %d bytes. Each name is its
own variable; the dots only group names. A value is any JSON value, at most
1 MiB. Exit status: 0 on success, 1 when a variable is missing or the store
fails, 2 on a usage error (bad name, scope or value), 4 when --session names
no session.`, store.MaxVarNameLen),
		Example: `  tavo var set user.prefs.theme dark
  tavo var set limits '{"daily": 20}'
  tavo var get limits | jq .daily
  tavo var ls --session ses_01J…
  git rev-parse HEAD | tavo var set build.commit -`,
	}
	pf := c.PersistentFlags()
	pf.StringVar(&o.Scope, "scope", "", "chat|global (default: chat with --session, else global)")
	_ = c.RegisterFlagCompletionFunc("scope", completeScope)
	pf.StringVar(&o.Session, "session", "", "the session whose chat variables to use")
	_ = c.RegisterFlagCompletionFunc("session", completeSessions(f))
	c.AddCommand(NewCmdVarGet(f, o, nil), NewCmdVarSet(f, o, nil), NewCmdVarRm(f, o, nil), NewCmdVarLs(f, o, nil))
	return c
}

// where resolves --scope and --session into the store's scope and session.
func (o *VarOptions) where() (scope, session string, err error) {
	scope = o.Scope
	switch {
	case scope == "" && o.Session != "":
		scope = store.ScopeChat
	case scope == "":
		scope = store.ScopeGlobal
	case scope != store.ScopeChat && scope != store.ScopeGlobal:
		return "", "", usageError(fmt.Errorf("--scope must be chat or global, got %q", o.Scope))
	}
	if scope == store.ScopeGlobal && o.Session != "" {
		return "", "", usageError(errors.New("--session selects chat variables; drop it or use --scope chat"))
	}
	if scope == store.ScopeChat && o.Session == "" {
		return "", "", usageError(errors.New("--scope chat needs --session ID (the session id from run.started)"))
	}
	return scope, o.Session, nil
}

// target resolves the scope flags and checks names, so that a command
// refuses a bad name before it opens the store.
func (o *VarOptions) target(names ...string) (scope, session string, err error) {
	if scope, session, err = o.where(); err != nil {
		return "", "", err
	}
	for _, n := range names {
		if err := store.CheckVarName(n); err != nil {
			return "", "", usageError(err)
		}
	}
	return scope, session, nil
}

// varError turns a store error into the command's exit status.
func varError(err error, scope, session, name string) error {
	switch {
	case errors.Is(err, store.ErrNotFound) && name != "":
		return failedError(fmt.Errorf("no %s variable %q", scope, name))
	case errors.Is(err, store.ErrNotFound):
		return sessionError(err, session)
	case store.Refusal(err) != nil:
		return usageError(store.Refusal(err))
	case errors.Is(err, store.ErrInvalid):
		return usageError(err)
	}
	return failedError(err)
}

// VarGetOptions are the inputs of `tavo var get`.
type VarGetOptions struct {
	*VarOptions
	Factory *Factory
	Ctx     context.Context
	Name    string
}

// NewCmdVarGet builds `tavo var get` on the shared scope flags o; runF,
// when not nil, runs instead of varGetRun (for tests).
func NewCmdVarGet(f *Factory, o *VarOptions, runF func(*VarGetOptions) error) *cobra.Command {
	opts := &VarGetOptions{VarOptions: o, Factory: f}
	return &cobra.Command{
		Use:   "get NAME",
		Short: "Print a variable's value",
		Long: `Print a variable's value: a string as its raw text, any other value as one
line of compact JSON, each followed by a newline. -o json prints the value as
JSON whatever its type (and --jq filters it). A missing variable is exit 1.`,
		Example: `  tavo var get user.prefs.theme
  tavo var get limits -o json --jq .daily`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx, opts.Name = cmd.Context(), args[0]
			return runOr(runF, varGetRun, opts)
		},
	}
}

func varGetRun(o *VarGetOptions) error {
	f := o.Factory
	scope, session, err := o.target(o.Name)
	if err != nil {
		return err
	}
	out, st, err := storeOutputContext(o.Ctx, f)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := checkSession(o.Ctx, st, session); err != nil {
		return err
	}
	v, err := st.GetVar(o.Ctx, scope, session, o.Name)
	if err != nil {
		return varError(err, scope, session, o.Name)
	}
	if out.Structured() {
		return out.WriteValue(v)
	}
	var str string
	if json.Unmarshal(v, &str) == nil {
		_, err = fmt.Fprintln(f.IO.Out, str)
	} else {
		_, err = fmt.Fprintf(f.IO.Out, "%s\n", v)
	}
	return err
}

// VarSetOptions are the inputs of `tavo var set`.
type VarSetOptions struct {
	*VarOptions
	Factory *Factory
	Ctx     context.Context
	Name    string
	// Value is the VALUE argument; "-" reads it from stdin.
	Value string
	// AsString stores Value as a string even when it parses as JSON.
	AsString bool
}

// NewCmdVarSet builds `tavo var set` on the shared scope flags o; runF,
// when not nil, runs instead of varSetRun (for tests).
func NewCmdVarSet(f *Factory, o *VarOptions, runF func(*VarSetOptions) error) *cobra.Command {
	opts := &VarSetOptions{VarOptions: o, Factory: f}
	c := &cobra.Command{
		Use:   "set NAME VALUE",
		Short: "Set a variable to a JSON value or a string",
		Long: fmt.Sprintf(`Set a variable, replacing its value. VALUE is taken as JSON when it parses
as JSON (42, true, null, [1,2], {"a":1}, "quoted"), else as a plain string;
--string always stores it as a string. VALUE "-" reads stdin instead, with
the same rule; one trailing newline is dropped from a string read there.
Values are stored as compact JSON, at most 1 MiB. A value over %d KiB, or one
holding a long base64 string or data: URL, is saved with a warning on stderr:
keep such content in a file (tavo file put) and its name in the variable.
-o json prints {name, scope, bytes, warning?}.`, store.WarnValueBytes>>10),
		Example: `  tavo var set count 3
  tavo var set --string zip 01234
  tavo var set --session ses_01J… plan '["fetch","summarise"]'
  curl -s https://example.com/config.json | tavo var set remote.config -`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx, opts.Name, opts.Value = cmd.Context(), args[0], args[1]
			return runOr(runF, varSetRun, opts)
		},
	}
	c.Flags().BoolVar(&opts.AsString, "string", false, "store VALUE as a string even when it parses as JSON")
	return c
}

func varSetRun(o *VarSetOptions) error {
	f, name := o.Factory, o.Name
	scope, session, err := o.target(name)
	if err != nil {
		return err
	}
	out, err := textOutput(f)
	if err != nil {
		return err
	}
	text, fromStdin := o.Value, o.Value == "-"
	if fromStdin {
		if text, err = readValue(f.IO.In); err != nil {
			return err
		}
	}
	raw, err := varValue(text, o.AsString, fromStdin)
	if err != nil {
		return err
	}
	value, warning, err := store.PrepareValue(raw)
	if err != nil {
		return usageError(err)
	}
	st, err := openStore(o.Ctx, f)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := checkSession(o.Ctx, st, session); err != nil {
		return err
	}
	if err := st.SetVar(o.Ctx, scope, session, name, value); err != nil {
		return varError(err, scope, session, "")
	}
	if warning != "" && !f.Quiet {
		fmt.Fprintf(f.IO.ErrOut, "tavo: warning: %s\n", warning)
	}
	if out.Structured() {
		return out.WriteValue(varSetResult{Name: name, Scope: scope, Bytes: len(value), Warning: warning})
	}
	return nil
}

// varSetResult is what `tavo var set -o json` prints: the result of the
// model's tavo_var_set.
type varSetResult struct {
	Name    string `json:"name"`
	Scope   string `json:"scope"`
	Bytes   int    `json:"bytes"`
	Warning string `json:"warning,omitempty"`
}

// readValue reads a value from stdin, refusing more than a variable holds.
func readValue(r io.Reader) (string, error) {
	data, err := io.ReadAll(io.LimitReader(r, store.MaxValueBytes+1))
	if err != nil {
		return "", failedError(fmt.Errorf("reading stdin: %w", err))
	}
	if len(data) > store.MaxValueBytes {
		return "", usageError(fmt.Errorf("stdin holds more than %d bytes (1 MiB), the most a variable holds; save it as a file with tavo file put", store.MaxValueBytes))
	}
	return string(data), nil
}

// varValue applies the VALUE rule: JSON when it parses (unless asString),
// else a string; a string read from stdin loses one trailing newline.
// Bytes that are not UTF-8 are refused rather than silently replaced.
func varValue(text string, asString, fromStdin bool) ([]byte, error) {
	if !utf8.ValidString(text) {
		return nil, usageError(errors.New("the value is not UTF-8 text; save binary data with tavo file put and keep its name in the variable"))
	}
	if !asString && json.Valid([]byte(text)) {
		return []byte(text), nil
	}
	if fromStdin {
		text = strings.TrimSuffix(text, "\n")
		text = strings.TrimSuffix(text, "\r")
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(text); err != nil {
		return nil, usageError(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// VarRmOptions are the inputs of `tavo var rm`.
type VarRmOptions struct {
	*VarOptions
	Factory *Factory
	Ctx     context.Context
	Names   []string
}

// NewCmdVarRm builds `tavo var rm` on the shared scope flags o; runF, when
// not nil, runs instead of varRmRun (for tests).
func NewCmdVarRm(f *Factory, o *VarOptions, runF func(*VarRmOptions) error) *cobra.Command {
	opts := &VarRmOptions{VarOptions: o, Factory: f}
	return &cobra.Command{
		Use:   "rm NAME...",
		Short: "Delete variables",
		Long:  `Delete variables. A missing variable is reported on stderr and makes the exit status 1; the others are still deleted.`,
		Example: `  tavo var rm build.commit
  tavo var ls | cut -f1 | grep '^tmp\.' | xargs tavo var rm`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx, opts.Names = cmd.Context(), args
			return runOr(runF, varRmRun, opts)
		},
	}
}

// varRmRun deletes every name it can; each failure but the last is printed
// as it happens, and the last becomes the exit status.
func varRmRun(o *VarRmOptions) error {
	scope, session, err := o.target(o.Names...)
	if err != nil {
		return err
	}
	st, err := openStore(o.Ctx, o.Factory)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := checkSession(o.Ctx, st, session); err != nil {
		return err
	}
	var last error
	for _, name := range o.Names {
		if err := st.DeleteVar(o.Ctx, scope, session, name); err != nil {
			if last != nil {
				printError(o.Factory, last)
			}
			last = varError(err, scope, session, name)
		}
	}
	return last
}

// varRow is one variable as `tavo var ls -o ndjson` prints it.
type varRow struct {
	Name  string          `json:"name"`
	Value json.RawMessage `json:"value"`
}

// VarLsOptions are the inputs of `tavo var ls`.
type VarLsOptions struct {
	*VarOptions
	Factory *Factory
	Ctx     context.Context
	// Prefix keeps the names that start with it; "" keeps all.
	Prefix string
}

// NewCmdVarLs builds `tavo var ls` on the shared scope flags o; runF, when
// not nil, runs instead of varLsRun (for tests).
func NewCmdVarLs(f *Factory, o *VarOptions, runF func(*VarLsOptions) error) *cobra.Command {
	opts := &VarLsOptions{VarOptions: o, Factory: f}
	return &cobra.Command{
		Use:   "ls [PREFIX]",
		Short: "List variables, sorted by name",
		Long: `List the variables of a scope, sorted by name; PREFIX keeps the names that
start with it. On a terminal: a table NAME VALUE, values clipped. In a pipe:
one variable per line, the name, a tab and the value as compact JSON (never
clipped). -o json prints one object {name: value}; -o ndjson one
{"name","value"} per line.`,
		Example: `  tavo var ls
  tavo var ls user. | cut -f1
  tavo var ls -o json --jq '."user.prefs.theme"'`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx, opts.Prefix = cmd.Context(), argOr(args, "")
			return runOr(runF, varLsRun, opts)
		},
	}
}

func varLsRun(o *VarLsOptions) error {
	f := o.Factory
	scope, session, err := o.where()
	if err != nil {
		return err
	}
	out, st, err := storeOutputContext(o.Ctx, f)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := checkSession(o.Ctx, st, session); err != nil {
		return err
	}
	vars, err := st.ListVars(o.Ctx, scope, session, o.Prefix)
	if err != nil {
		return varError(err, scope, session, "")
	}
	switch out.Format {
	case cli.FormatNDJSON:
		rows := make([]varRow, len(vars))
		for i, v := range vars {
			rows[i] = varRow{Name: v.Name, Value: v.Value}
		}
		return cli.WriteList(out, rows)
	case cli.FormatJSON:
		obj := make(map[string]json.RawMessage, len(vars))
		for _, v := range vars {
			obj[v.Name] = v.Value
		}
		return out.WriteValue(obj)
	}
	tty := f.IO.IsStdoutTTY()
	if tty && len(vars) == 0 {
		fmt.Fprintln(f.IO.ErrOut, "no variables")
		return nil
	}
	t := cli.NewTable(f.IO, "NAME", "VALUE")
	for _, v := range vars {
		val := string(v.Value)
		if tty {
			val = clip(val, 60)
		}
		t.AddRow(v.Name, val)
	}
	return t.Render()
}
