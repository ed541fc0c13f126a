package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/files"
	"github.com/tavo-cli/tavo/pkg/ids"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/codecs"
	"github.com/tavo-cli/tavo/pkg/runner"
	"github.com/tavo-cli/tavo/pkg/session"
	"github.com/tavo-cli/tavo/pkg/store"
)

// NewCmdSession builds `tavo session` and its subcommands.
func NewCmdSession(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "session",
		Short: "Create, list, read, continue, rename, delete and compact sessions",
		Long: `Every tavo run belongs to a session, which keeps the conversation; its id is in
the run.started event. Continue one with tavo session send ID TEXT.`,
	}
	c.AddCommand(NewCmdSessionCreate(f, nil), NewCmdSessionList(f, nil), NewCmdSessionShow(f, nil), NewCmdSessionRead(f, nil),
		NewCmdSessionSend(f, nil), NewCmdSessionRename(f, nil), NewCmdSessionDelete(f, nil), NewCmdSessionCompact(f, nil),
		NewCmdSessionTree(f, nil))
	return c
}

// sessionRow is a session as printed by list, show and create.
type sessionRow struct {
	ID         string       `json:"id"`
	Title      string       `json:"title"`
	CreatedAt  time.Time    `json:"created_at"`
	LastUsedAt time.Time    `json:"last_used_at"`
	Messages   int          `json:"messages"`
	ActiveRun  string       `json:"active_run,omitempty"`
	Todos      []store.Todo `json:"todos,omitempty"`
	Compaction *compactRow  `json:"compaction,omitempty"`
	// Config is how the session is run (show only); absent when it keeps
	// nothing.
	Config *session.Config `json:"config,omitempty"`
}

type compactRow struct {
	KeptFromSeq  int64     `json:"kept_from_seq"`
	TokensBefore int       `json:"tokens_before"`
	TokensAfter  int       `json:"tokens_after"`
	CreatedAt    time.Time `json:"created_at"`
}

func toSessionRow(s *store.Session) sessionRow {
	return sessionRow{ID: s.ID, Title: s.Title, CreatedAt: s.CreatedAt.UTC(), LastUsedAt: s.LastUsedAt.UTC(), Messages: s.Messages, ActiveRun: s.ActiveRun}
}

// SessionCreateOptions are the inputs of `tavo session create`.
type SessionCreateOptions struct {
	Factory *Factory
	Ctx     context.Context
	// Title is the new session's title: "Untitled" when --title is not given.
	Title string
}

// NewCmdSessionCreate builds `tavo session create`; runF, when not nil, runs
// instead of sessionCreateRun (for tests).
func NewCmdSessionCreate(f *Factory, runF func(*SessionCreateOptions) error) *cobra.Command {
	o := &SessionCreateOptions{Factory: f}
	c := &cobra.Command{
		Use:   "create",
		Short: "Create an empty session and print its id",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Ctx = cmd.Context()
			// An explicit --title "" stays empty, and is refused.
			if !cmd.Flags().Changed("title") {
				o.Title = session.UntitledTitle
			}
			return runOr(runF, sessionCreateRun, o)
		},
		Example: `  tavo session create --title "Release notes"
  id=$(tavo session create) && tavo session send "$id" "Hello"`,
	}
	c.Flags().StringVar(&o.Title, "title", "", "title, 1-120 characters")
	return c
}

func sessionCreateRun(o *SessionCreateOptions) error {
	out, st, err := storeOutputContext(o.Ctx, o.Factory)
	if err != nil {
		return err
	}
	defer st.Close()
	s, err := st.CreateSession(o.Ctx, ids.New("ses", time.Now()), o.Title)
	if err != nil {
		return titleError(err)
	}
	if out.Structured() {
		return out.WriteValue(toSessionRow(s))
	}
	_, err = fmt.Fprintln(o.Factory.IO.Out, s.ID)
	return err
}

func titleError(err error) error { return storeError(err) }

// SessionListOptions are the inputs of `tavo session list`.
type SessionListOptions struct {
	Factory *Factory
	Ctx     context.Context
	Limit   int
	Cursor  string
	// Root lists that session and the sub-agent sessions below it.
	Root string
}

// NewCmdSessionList builds `tavo session list`; runF, when not nil, runs
// instead of sessionListRun (for tests).
func NewCmdSessionList(f *Factory, runF func(*SessionListOptions) error) *cobra.Command {
	o := &SessionListOptions{Factory: f}
	c := &cobra.Command{
		Use:   "list",
		Short: "List sessions, most recently used first",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Ctx = cmd.Context()
			return runOr(runF, sessionListRun, o)
		},
		Example: `  tavo session list --limit 10
  tavo session list -o json --jq '.sessions[] | [.id, .title] | @tsv'`,
	}
	c.Flags().IntVar(&o.Limit, "limit", 50, "sessions per page, 1-200")
	c.Flags().StringVar(&o.Cursor, "cursor", "", "continue after a previous page")
	c.Flags().StringVar(&o.Root, "root", "", "list this session and its sub-agent sessions (docs/subagents.md)")
	_ = c.RegisterFlagCompletionFunc("root", completeSessions(f))
	return c
}

func sessionListRun(o *SessionListOptions) error {
	f := o.Factory
	if err := checkLimit(o.Limit, 200); err != nil {
		return err
	}
	if o.Root != "" {
		return sessionListTree(o)
	}
	out, st, err := storeOutputContext(o.Ctx, f)
	if err != nil {
		return err
	}
	defer st.Close()
	list, next, err := st.ListSessions(o.Ctx, o.Limit, o.Cursor)
	if err != nil {
		return cursorError(err)
	}
	rows := make([]sessionRow, 0, len(list))
	for i := range list {
		rows = append(rows, toSessionRow(&list[i]))
	}
	if out.Structured() {
		return writePage(f, out, "sessions", rows, next)
	}
	t := cli.NewTable(f.IO, "ID", "TITLE", "LAST USED", "MESSAGES", "ACTIVE RUN")
	for _, r := range rows {
		t.AddRow(r.ID, clip(r.Title, 60), r.LastUsedAt.Format(time.RFC3339), strconv.Itoa(r.Messages), r.ActiveRun)
	}
	if err := t.Render(); err != nil {
		return err
	}
	pageHint(f, next)
	return nil
}

// pageHint tells a person on a terminal how to get the next page.
func pageHint(f *Factory, next string) {
	if next != "" && !f.Quiet {
		fmt.Fprintf(f.IO.ErrOut, "more: --cursor %s\n", next)
	}
}

// cursorError maps a listing's store error: a bad --cursor is a usage
// error, anything else a failure.
func cursorError(err error) error { return storeError(err) }

// SessionShowOptions are the inputs of `tavo session show`.
type SessionShowOptions struct {
	Factory *Factory
	Ctx     context.Context
	ID      string
}

// NewCmdSessionShow builds `tavo session show`; runF, when not nil, runs
// instead of sessionShowRun (for tests).
func NewCmdSessionShow(f *Factory, runF func(*SessionShowOptions) error) *cobra.Command {
	o := &SessionShowOptions{Factory: f}
	return &cobra.Command{
		Use:   "show ID",
		Short: "Show a session: title, times, messages, active run, todos, compaction",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Ctx, o.ID = cmd.Context(), args[0]
			return runOr(runF, sessionShowRun, o)
		},
		ValidArgsFunction: firstArgOnly(completeSessions(f)),
		Example: `  tavo session show ses_01J…
  tavo session show ses_01J… -o json --jq .messages
  # exit 4 when the session does not exist (docs/exit-codes.md)`,
	}
}

func sessionShowRun(o *SessionShowOptions) error {
	ctx := o.Ctx
	out, st, err := storeOutputContext(ctx, o.Factory)
	if err != nil {
		return err
	}
	defer st.Close()
	s, err := st.GetSession(ctx, o.ID)
	if err != nil {
		return sessionError(err, o.ID)
	}
	row := toSessionRow(s)
	if row.Todos, err = st.Todos(ctx, s.ID); err != nil {
		return failedError(err)
	}
	cfg, err := session.LoadConfig(ctx, st, s.ID)
	if err != nil {
		return err
	}
	if !cfg.IsZero() {
		row.Config = &cfg
	}
	if c, err := st.LatestCompaction(ctx, s.ID); err == nil {
		row.Compaction = &compactRow{KeptFromSeq: c.KeptFromSeq, TokensBefore: c.TokensBefore, TokensAfter: c.TokensAfter, CreatedAt: c.CreatedAt.UTC()}
	}
	if out.Structured() {
		return out.WriteValue(row)
	}
	w := o.Factory.IO.Out
	fmt.Fprintf(w, "id:           %s\ntitle:        %s\ncreated:      %s\nlast used:    %s\nmessages:     %d\n",
		row.ID, row.Title, row.CreatedAt.Format(time.RFC3339), row.LastUsedAt.Format(time.RFC3339), row.Messages)
	if row.ActiveRun != "" {
		fmt.Fprintf(w, "active run:   %s\n", row.ActiveRun)
	}
	if c := row.Config; c != nil {
		printSessionConfig(w, c)
	}
	if c := row.Compaction; c != nil {
		fmt.Fprintf(w, "compacted:    from seq %d, ~%d → ~%d tokens (%s)\n", c.KeptFromSeq, c.TokensBefore, c.TokensAfter, c.CreatedAt.Format(time.RFC3339))
	}
	if len(row.Todos) > 0 {
		fmt.Fprintln(w, "todos:")
		for _, t := range row.Todos {
			mark := map[string]string{"pending": "[ ]", "in_progress": "[~]", "completed": "[x]"}[t.Status]
			fmt.Fprintf(w, "  %s %s\n", mark, t.Content)
		}
	}
	return nil
}

// printSessionConfig writes the settings a session keeps, one a line, in
// the layout of `session show`; what it leaves to the profile is not shown.
func printSessionConfig(w io.Writer, c *session.Config) {
	line := func(label, v string) {
		if v != "" {
			fmt.Fprintf(w, "%-14s%s\n", label+":", v)
		}
	}
	onOff := func(b *bool) string {
		if b == nil {
			return ""
		}
		return map[bool]string{true: "on", false: "off"}[*b]
	}
	line("profile", c.Profile)
	line("provider", c.Provider)
	line("model", c.Model)
	line("base url", c.BaseURL)
	if c.System != nil {
		line("system", strconv.Quote(clip(*c.System, 200)))
	}
	line("tools", onOff(c.Tools))
	line("allow tools", strings.Join(c.AllowTools, ", "))
	line("dynamic tools", onOff(c.DynamicTools))
	line("reasoning", c.ReasoningContext)
	line("workspace", c.Workspace)
	line("code mode", onOff(c.CodeMode))
}

// messageRow is one stored message as `session read` prints it.
type messageRow struct {
	Seq       int64                `json:"seq"`
	RunID     string               `json:"run_id"`
	Round     int                  `json:"round"`
	Role      providers.Role       `json:"role"`
	Text      string               `json:"text"`
	ToolCalls []events.ToolCallRef `json:"tool_calls,omitempty"`
	Message   providers.Message    `json:"message"`
	CreatedAt time.Time            `json:"created_at"`
}

// SessionReadOptions are the inputs of `tavo session read`.
type SessionReadOptions struct {
	Factory *Factory
	Ctx     context.Context
	ID      string
	// BeforeSeq pages back: the messages before this seq; 0 for the newest.
	BeforeSeq int64
	Limit     int
}

// NewCmdSessionRead builds `tavo session read`; runF, when not nil, runs
// instead of sessionReadRun (for tests).
func NewCmdSessionRead(f *Factory, runF func(*SessionReadOptions) error) *cobra.Command {
	o := &SessionReadOptions{Factory: f}
	c := &cobra.Command{
		Use:   "read ID",
		Short: "Read a session's messages, a page at a time, oldest first",
		Long: `Read a session's messages. A page holds the --limit messages before
--before-seq (default: the newest), printed oldest first; the next page back is
--before-seq of the first message printed (said on stderr).

With -o json: {messages, last_seq, next_before_seq, active_run, compactions};
next_before_seq is 0 on the first page. With -o ndjson: one message a line.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Ctx, o.ID = cmd.Context(), args[0]
			return runOr(runF, sessionReadRun, o)
		},
		ValidArgsFunction: firstArgOnly(completeSessions(f)),
		Example: `  tavo session read ses_01J…
  tavo session read ses_01J… --limit 20 -o json
  # exit 4 when the session does not exist (docs/exit-codes.md)`,
	}
	c.Flags().Int64Var(&o.BeforeSeq, "before-seq", 0, "page of messages before this seq (0: the newest)")
	c.Flags().IntVar(&o.Limit, "limit", 100, "messages per page, 1-500")
	return c
}

// beforeSeqRange bounds `session read --before-seq`.
var beforeSeqRange = config.Range[int64]{Flag: "--before-seq", Min: 1, Zero: "the newest"}

// sessionPage is what `session read -o json` prints: one page of messages
// and what a reader needs to go on (SPEC §17).
type sessionPage struct {
	Messages []messageRow `json:"messages"`
	// LastSeq is the session's newest seq (0 when empty).
	LastSeq int64 `json:"last_seq"`
	// NextBeforeSeq is --before-seq of the page before this one, 0 when
	// this page starts at the first message.
	NextBeforeSeq int64 `json:"next_before_seq"`
	// ActiveRun is the run holding the session, "" when idle.
	ActiveRun   string       `json:"active_run"`
	Compactions []compactRow `json:"compactions"`
}

func sessionReadRun(o *SessionReadOptions) error {
	if err := checkLimit(o.Limit, 500); err != nil {
		return err
	}
	if err := checkRange(beforeSeqRange, o.BeforeSeq); err != nil {
		return err
	}
	ctx := o.Ctx
	out, st, err := storeOutputContext(ctx, o.Factory)
	if err != nil {
		return err
	}
	defer st.Close()
	sess, err := st.GetSession(ctx, o.ID)
	if err != nil {
		return sessionError(err, o.ID)
	}
	msgs, err := st.ReadMessages(ctx, o.ID, o.BeforeSeq, o.Limit)
	if err != nil {
		return storeError(err)
	}
	page := sessionPage{Messages: make([]messageRow, 0, len(msgs)), LastSeq: sess.LastSeq, ActiveRun: sess.ActiveRun, Compactions: []compactRow{}}
	for _, m := range msgs {
		r := messageRow{Seq: m.Seq, RunID: m.RunID, Round: m.Round, Role: m.Message.Role, Text: m.Message.Text(), Message: m.Message, CreatedAt: m.CreatedAt.UTC()}
		for _, c := range m.Message.ToolCalls() {
			r.ToolCalls = append(r.ToolCalls, events.ToolCallRef{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
		}
		page.Messages = append(page.Messages, r)
	}
	// Seqs have no gaps and start at 1: a page whose first seq is above 1
	// has older messages before it.
	if len(msgs) > 0 && msgs[0].Seq > 1 {
		page.NextBeforeSeq = msgs[0].Seq
	}
	comps, err := st.Compactions(ctx, o.ID)
	if err != nil {
		return err
	}
	for _, c := range comps {
		page.Compactions = append(page.Compactions, compactRow{KeptFromSeq: c.KeptFromSeq, TokensBefore: c.TokensBefore, TokensAfter: c.TokensAfter, CreatedAt: c.CreatedAt.UTC()})
	}
	if out.Structured() {
		if out.Format == cli.FormatNDJSON {
			// One message a line, for streaming readers.
			for _, r := range page.Messages {
				if err := out.WriteValue(r); err != nil {
					return err
				}
			}
			return nil
		}
		return out.WriteValue(page)
	}
	f := o.Factory
	t := cli.NewTable(f.IO, "SEQ", "ROLE", "TEXT")
	for _, r := range page.Messages {
		t.AddRow(strconv.FormatInt(r.Seq, 10), string(r.Role), messageSummary(r))
	}
	if err := t.Render(); err != nil {
		return err
	}
	if page.NextBeforeSeq > 0 && !f.Quiet {
		fmt.Fprintf(f.IO.ErrOut, "older: --before-seq %d\n", page.NextBeforeSeq)
	}
	return nil
}

// messageSummary is one message on one line: its text, the tools it calls,
// or the results it carries, clipped.
func messageSummary(r messageRow) string {
	var parts []string
	if t := oneLine(r.Text); t != "" {
		parts = append(parts, t)
	}
	for _, c := range r.ToolCalls {
		parts = append(parts, "→ "+c.Name+" "+clip(c.Arguments, 120))
	}
	for _, p := range r.Message.Parts {
		if p.ToolResult != nil {
			parts = append(parts, p.ToolResult.Name+" ← "+clip(oneLine(p.ToolResult.Content), 120))
		}
	}
	return clip(strings.Join(parts, " · "), 200)
}

// NewCmdSessionSend builds `tavo session send`, which is `tavo run
// --session ID`: same options, same run function. runF, when not nil, runs
// instead of runRun (for tests).
func NewCmdSessionSend(f *Factory, runF func(*RunOptions) error) *cobra.Command {
	o := &RunOptions{Factory: f}
	c := &cobra.Command{
		Use:   "send ID [PROMPT...]",
		Short: "Continue a session with its full history (like tavo run --session ID)",
		Long: `Continue a session: the new prompt goes to the model with the session's history
(compacted when it would not fit the profile's context_window). Takes every flag
of tavo run; output and exit codes are the same.

` + runExitCodes,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Ctx, o.Session, o.Args, o.Changed = cmd.Context(), args[0], args[1:], cmd.Flags().Changed
			return runOr(runF, runRun, o)
		},
		ValidArgsFunction: firstArgOnly(completeSessions(f)),
		Example: `  tavo session send ses_01J… "And in French?"
  git diff | tavo session send ses_01J… -T "Review this change too"
  tavo session send ses_01J… -o json --jq .text "Summarise our conversation"
  # exit 4 when the session does not exist or is busy; 3, 5, 130 and 143 as for tavo run (docs/exit-codes.md)`,
	}
	addRunFlags(c, o)
	return c
}

// SessionRenameOptions are the inputs of `tavo session rename`.
type SessionRenameOptions struct {
	Factory *Factory
	Ctx     context.Context
	ID      string
	Title   string
}

// NewCmdSessionRename builds `tavo session rename`; runF, when not nil, runs
// instead of sessionRenameRun (for tests).
func NewCmdSessionRename(f *Factory, runF func(*SessionRenameOptions) error) *cobra.Command {
	o := &SessionRenameOptions{Factory: f}
	return &cobra.Command{
		Use:   "rename ID TITLE...",
		Short: "Rename a session (1-120 characters)",
		Args:  cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Ctx, o.ID, o.Title = cmd.Context(), args[0], strings.Join(args[1:], " ")
			return runOr(runF, sessionRenameRun, o)
		},
		ValidArgsFunction: firstArgOnly(completeSessions(f)),
		Example: `  tavo session rename ses_01J… Quarterly report
  tavo session rename ses_01J… "Release notes, v2"
  # exit 4 when the session does not exist or is busy (docs/exit-codes.md)`,
	}
}

func sessionRenameRun(o *SessionRenameOptions) error {
	st, err := openStore(o.Ctx, o.Factory)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.RenameSession(o.Ctx, o.ID, o.Title); err != nil {
		if errors.Is(err, store.ErrInvalid) {
			return usageError(err)
		}
		return sessionError(err, o.ID)
	}
	return nil
}

// SessionDeleteOptions are the inputs of `tavo session delete`.
type SessionDeleteOptions struct {
	Factory *Factory
	Ctx     context.Context
	IDs     []string
	// Recursive deletes the sub-agent sessions below each one too.
	Recursive bool
}

// NewCmdSessionDelete builds `tavo session delete`; runF, when not nil, runs
// instead of sessionDeleteRun (for tests).
func NewCmdSessionDelete(f *Factory, runF func(*SessionDeleteOptions) error) *cobra.Command {
	o := &SessionDeleteOptions{Factory: f}
	c := &cobra.Command{
		Use:   "delete ID...",
		Short: "Delete sessions with their messages, runs and events (refused while one runs)",
		Long: `Delete sessions with their messages, runs, events, todos and chat variables.
A session with a live run is refused (exit 4); one already gone is not an error.
A session with sub-agent sessions below it is deleted with them, as one unit,
only under --recursive, and not at all while any of them runs (exit 4).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Ctx, o.IDs = cmd.Context(), args
			return runOr(runF, sessionDeleteRun, o)
		},
		ValidArgsFunction: completeSessions(f),
		Example: `  tavo session delete ses_01J…
  tavo session list -o json --jq '.sessions[] | select(.messages==0) | .id' | xargs tavo session delete
  tavo session delete --recursive ses_01J…   # with its sub-agent sessions
  # exit 4 when a session does not exist or is busy (docs/exit-codes.md)`,
	}
	c.Flags().BoolVarP(&o.Recursive, "recursive", "r", false, "also delete the sub-agent sessions below each session")
	return c
}

func sessionDeleteRun(o *SessionDeleteOptions) error {
	st, err := openStore(o.Ctx, o.Factory)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, root := range o.IDs {
		deleted, err := deleteSessions(o.Ctx, st, root, o.Recursive)
		if err != nil {
			return err
		}
		for _, id := range deleted {
			if err := removeSessionFiles(o.Factory, id); err != nil {
				return err
			}
		}
	}
	return nil
}

// removeSessionFiles removes a deleted session's chat-scope files.
func removeSessionFiles(f *Factory, id string) error {
	if files.CheckSession(id) == nil {
		if err := os.RemoveAll(filepath.Join(f.DataDirectory(), "files", "sessions", id)); err != nil {
			return failedError(fmt.Errorf("removing the files of session %s: %w", id, err))
		}
	}
	return nil
}

// SessionCompactOptions are the inputs of `tavo session compact`.
type SessionCompactOptions struct {
	Factory *Factory
	Ctx     context.Context
	ID      string
	// Profile, Provider, Model and BaseURL pick the model that summarises,
	// as for a run.
	Profile, Provider, Model, BaseURL string
}

// NewCmdSessionCompact builds `tavo session compact`; runF, when not nil,
// runs instead of sessionCompactRun (for tests).
func NewCmdSessionCompact(f *Factory, runF func(*SessionCompactOptions) error) *cobra.Command {
	o := &SessionCompactOptions{Factory: f}
	c := &cobra.Command{
		Use:   "compact ID",
		Short: "Summarise a session's older messages now, with the model",
		Long: `Summarise the oldest complete exchanges of a session with the model, keeping the
newest ones, so later sends fit the context. Needs the profile's context_window.
Errors: context_limits_missing (exit 2), nothing_to_compact, compaction_failed (exit 1).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Ctx, o.ID = cmd.Context(), args[0]
			return runOr(runF, sessionCompactRun, o)
		},
		ValidArgsFunction: firstArgOnly(completeSessions(f)),
		Example: `  tavo session compact ses_01J…
  tavo session compact ses_01J… -p cheap     # summarise with another profile's model
  # exit 4 when the session does not exist or is busy (docs/exit-codes.md)`,
	}
	c.Flags().StringVarP(&o.Profile, "profile", "p", "", "profile whose model summarises")
	_ = c.RegisterFlagCompletionFunc("profile", completeProfiles(f))
	c.Flags().StringVar(&o.Provider, "provider", "", "protocol")
	_ = c.RegisterFlagCompletionFunc("provider", completeProtocols)
	c.Flags().StringVarP(&o.Model, "model", "m", "", "model")
	c.Flags().StringVar(&o.BaseURL, "base-url", "", "API base URL")
	return c
}

func sessionCompactRun(o *SessionCompactOptions) error {
	f := o.Factory
	out, cfg, err := configOutput(f)
	if err != nil {
		return err
	}
	res, err := cfg.Resolve(config.Overrides{Profile: o.Profile, Provider: o.Provider, Model: o.Model, BaseURL: o.BaseURL}, f.Getenv)
	if err != nil {
		return usageError(err)
	}
	provider, err := codecs.New(res.Protocol, res.ProviderConfig())
	if err != nil {
		return usageError(err)
	}
	ctx, stop := signalContext(o.Ctx)
	defer stop()
	st, err := openStore(ctx, f)
	if err != nil {
		return err
	}
	defer st.Close()
	result, err := session.Compact(ctx, st, o.ID, session.CompactOptions{
		Provider: provider, Model: res.Model, ContextBudget: config.ContextBudget(res.Profile.ContextWindow, res.Profile.MaxOutputTokens)})
	if err != nil {
		return compactError(err, o.ID)
	}
	v := compactRow{KeptFromSeq: result.KeptFromSeq, TokensBefore: result.TokensBefore, TokensAfter: result.TokensAfter, CreatedAt: time.Now().UTC()}
	if out.Structured() {
		return out.WriteValue(v)
	}
	_, err = fmt.Fprintf(f.IO.Out, "compacted: kept from seq %d, ~%d → ~%d tokens\n", v.KeptFromSeq, v.TokensBefore, v.TokensAfter)
	return err
}

// compactError maps an error of session.Compact to its exit code: a
// missing context window is a configuration error (2), an unknown session
// exit 4, anything else a failure (1).
func compactError(err error, id string) error {
	var ce *runner.CompactionError
	switch {
	case errors.As(err, &ce) && ce.Code == runner.CodeContextLimitsMissing:
		return usageError(err)
	case errors.As(err, &ce):
		return failedError(err)
	}
	return sessionError(err, id)
}
