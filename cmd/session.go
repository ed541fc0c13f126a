package cmd

import (
	"errors"
	"fmt"
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

func newCmdSession(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "session",
		Short: "Create, list, read, continue, rename, delete and compact sessions",
		Long: `Every tavo run belongs to a session, which keeps the conversation; its id is in
the run.started event. Continue one with tavo session send ID TEXT.`,
	}
	c.AddCommand(newCmdSessionCreate(f), newCmdSessionList(f), newCmdSessionShow(f), newCmdSessionRead(f),
		newCmdSessionSend(f), newCmdSessionRename(f), newCmdSessionDelete(f), newCmdSessionCompact(f))
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

func newCmdSessionCreate(f *Factory) *cobra.Command {
	var title string
	c := &cobra.Command{
		Use:   "create",
		Short: "Create an empty session and print its id",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			out, st, err := storeOutput(cmd, f)
			if err != nil {
				return err
			}
			defer st.Close()
			if !cmd.Flags().Changed("title") {
				title = "Untitled"
			}
			s, err := st.CreateSession(cmd.Context(), ids.New("ses", time.Now()), title)
			if err != nil {
				return titleError(err)
			}
			if out.Structured() {
				return out.WriteValue(toSessionRow(s))
			}
			_, err = fmt.Fprintln(f.IO.Out, s.ID)
			return err
		},
	}
	c.Flags().StringVar(&title, "title", "", "title, 1-120 characters")
	return c
}

func titleError(err error) error {
	if errors.Is(err, store.ErrInvalid) {
		return usageError(err)
	}
	return err
}

func newCmdSessionList(f *Factory) *cobra.Command {
	var limit int
	var cursor string
	c := &cobra.Command{
		Use:   "list",
		Short: "List sessions, most recently used first",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkLimit(limit, 200); err != nil {
				return err
			}
			out, st, err := storeOutput(cmd, f)
			if err != nil {
				return err
			}
			defer st.Close()
			list, next, err := st.ListSessions(cmd.Context(), limit, cursor)
			if err != nil {
				return cursorError(err)
			}
			rows := make([]sessionRow, 0, len(list))
			for i := range list {
				rows = append(rows, toSessionRow(&list[i]))
			}
			if out.Structured() {
				return out.WriteValue(map[string]any{"sessions": rows, "next_cursor": next})
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
		},
	}
	c.Flags().IntVar(&limit, "limit", 50, "sessions per page, 1-200")
	c.Flags().StringVar(&cursor, "cursor", "", "continue after a previous page")
	return c
}

// pageHint tells a person on a terminal how to get the next page.
func pageHint(f *Factory, next string) {
	if next != "" && !f.Quiet {
		fmt.Fprintf(f.IO.ErrOut, "more: --cursor %s\n", next)
	}
}

func cursorError(err error) error {
	if errors.Is(err, store.ErrInvalid) {
		return usageError(err)
	}
	return err
}

func newCmdSessionShow(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "show ID",
		Short: "Show a session: title, times, messages, active run, todos, compaction",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			out, st, err := storeOutput(cmd, f)
			if err != nil {
				return err
			}
			defer st.Close()
			s, err := st.GetSession(ctx, args[0])
			if err != nil {
				return sessionError(err, args[0])
			}
			row := toSessionRow(s)
			if row.Todos, err = st.Todos(ctx, s.ID); err != nil {
				return err
			}
			if c, err := st.LatestCompaction(ctx, s.ID); err == nil {
				row.Compaction = &compactRow{KeptFromSeq: c.KeptFromSeq, TokensBefore: c.TokensBefore, TokensAfter: c.TokensAfter, CreatedAt: c.CreatedAt.UTC()}
			}
			if out.Structured() {
				return out.WriteValue(row)
			}
			w := f.IO.Out
			fmt.Fprintf(w, "id:           %s\ntitle:        %s\ncreated:      %s\nlast used:    %s\nmessages:     %d\n",
				row.ID, row.Title, row.CreatedAt.Format(time.RFC3339), row.LastUsedAt.Format(time.RFC3339), row.Messages)
			if row.ActiveRun != "" {
				fmt.Fprintf(w, "active run:   %s\n", row.ActiveRun)
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
		},
	}
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

func newCmdSessionRead(f *Factory) *cobra.Command {
	var before int64
	var limit int
	c := &cobra.Command{
		Use:   "read ID",
		Short: "Read a session's messages, a page at a time, oldest first",
		Long: `Read a session's messages. A page holds the --limit messages before
--before-seq (default: the newest), printed oldest first; the next page back is
--before-seq of the first message printed.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkLimit(limit, 500); err != nil {
				return err
			}
			ctx := cmd.Context()
			out, st, err := storeOutput(cmd, f)
			if err != nil {
				return err
			}
			defer st.Close()
			if _, err := st.GetSession(ctx, args[0]); err != nil {
				return sessionError(err, args[0])
			}
			msgs, err := st.ReadMessages(ctx, args[0], before, limit)
			if err != nil {
				return err
			}
			rows := make([]messageRow, 0, len(msgs))
			for _, m := range msgs {
				r := messageRow{Seq: m.Seq, RunID: m.RunID, Round: m.Round, Role: m.Message.Role, Text: m.Message.Text(), Message: m.Message, CreatedAt: m.CreatedAt.UTC()}
				for _, c := range m.Message.ToolCalls() {
					r.ToolCalls = append(r.ToolCalls, events.ToolCallRef{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
				}
				rows = append(rows, r)
			}
			if out.Structured() {
				if out.Format == cli.FormatNDJSON {
					for _, r := range rows {
						if err := out.WriteValue(r); err != nil {
							return err
						}
					}
					return nil
				}
				return out.WriteValue(rows)
			}
			w := f.IO.Out
			for _, r := range rows {
				fmt.Fprintf(w, "#%d %s", r.Seq, r.Role)
				if r.Role == providers.RoleTool {
					for _, p := range r.Message.Parts {
						if p.ToolResult != nil {
							fmt.Fprintf(w, "\n  %s → %s", p.ToolResult.Name, clip(p.ToolResult.Content, 200))
						}
					}
					fmt.Fprintln(w)
					continue
				}
				fmt.Fprintf(w, ": %s\n", r.Text)
				for _, c := range r.ToolCalls {
					fmt.Fprintf(w, "  → %s %s\n", c.Name, clip(c.Arguments, 200))
				}
			}
			return nil
		},
	}
	c.Flags().Int64Var(&before, "before-seq", 0, "page of messages before this seq (0: the newest)")
	c.Flags().IntVar(&limit, "limit", 100, "messages per page, 1-500")
	return c
}

func newCmdSessionSend(f *Factory) *cobra.Command {
	o := &RunOptions{}
	c := &cobra.Command{
		Use:   "send ID [PROMPT...]",
		Short: "Continue a session with its full history (like tavo run --session ID)",
		Long: `Continue a session: the new prompt goes to the model with the session's history
(compacted when it would not fit the profile's context_window). Takes every flag
of tavo run; output and exit codes are the same.

` + runExitCodes,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Session = args[0]
			return runRun(cmd, f, o, args[1:])
		},
	}
	addRunFlags(c, o)
	return c
}

func newCmdSessionRename(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "rename ID TITLE...",
		Short: "Rename a session (1-120 characters)",
		Args:  cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := openStore(cmd.Context(), f)
			if err != nil {
				return err
			}
			defer st.Close()
			if err := st.RenameSession(cmd.Context(), args[0], strings.Join(args[1:], " ")); err != nil {
				if errors.Is(err, store.ErrInvalid) {
					return usageError(err)
				}
				return sessionError(err, args[0])
			}
			return nil
		},
	}
}

func newCmdSessionDelete(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "delete ID...",
		Short: "Delete sessions with their messages, runs and events (refused while one runs)",
		Long: `Delete sessions with their messages, runs, events, todos and chat variables.
A session with a live run is refused (exit 4); one already gone is not an error.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := openStore(cmd.Context(), f)
			if err != nil {
				return err
			}
			defer st.Close()
			for _, id := range args {
				if err := st.DeleteSession(cmd.Context(), id); err != nil {
					return sessionError(err, id)
				}
				// The session's chat-scope files go with it.
				if files.CheckSession(id) == nil {
					if err := os.RemoveAll(filepath.Join(f.DataDirectory(), "files", "sessions", id)); err != nil {
						return fmt.Errorf("removing the files of session %s: %w", id, err)
					}
				}
			}
			return nil
		},
	}
}

func newCmdSessionCompact(f *Factory) *cobra.Command {
	var o struct{ Profile, Provider, Model, BaseURL string }
	c := &cobra.Command{
		Use:   "compact ID",
		Short: "Summarise a session's older messages now, with the model",
		Long: `Summarise the oldest complete exchanges of a session with the model, keeping the
newest ones, so later sends fit the context. Needs the profile's context_window.
Errors: context_limits_missing (exit 2), nothing_to_compact, compaction_failed (exit 1).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			out, err := cli.NewOutput(f.IO, f.Output, f.JQ, cli.FormatText)
			if err != nil {
				return usageError(err)
			}
			cfg, err := f.Config()
			if err != nil {
				return usageError(err)
			}
			res, err := cfg.Resolve(config.Overrides{Profile: o.Profile, Provider: o.Provider, Model: o.Model, BaseURL: o.BaseURL}, f.Getenv)
			if err != nil {
				return usageError(err)
			}
			window := res.Profile.ContextWindow
			if window <= 0 {
				return usageError(fmt.Errorf("%s: the profile sets no context_window; add one with `tavo profile set NAME --context-window N`", runner.CodeContextLimitsMissing))
			}
			provider, err := codecs.New(res.Protocol, res.ProviderConfig())
			if err != nil {
				return usageError(err)
			}
			ctx, stop := signalContext(cmd.Context())
			defer stop()
			st, err := openStore(ctx, f)
			if err != nil {
				return err
			}
			defer st.Close()
			// No lock is needed: a run appending meanwhile only adds messages
			// after kept_from_seq, which stays valid.
			if _, err := st.GetSession(ctx, args[0]); err != nil {
				return sessionError(err, args[0])
			}
			h, err := session.LoadHistory(ctx, st, args[0])
			if err != nil {
				return err
			}
			comp := &session.Compactor{Store: st, SessionID: args[0], Provider: provider, Model: res.Model, History: h,
				Target: config.ContextBudget(window, res.Profile.MaxOutputTokens) / 2, KeepNewest: true}
			result, err := comp.Compact(ctx, h.Messages, "requested")
			if err != nil {
				var ce *runner.CompactionError
				if errors.As(err, &ce) {
					return &ExitError{Code: 1, Err: err}
				}
				return err
			}
			v := compactRow{KeptFromSeq: result.KeptFromSeq, TokensBefore: result.TokensBefore, TokensAfter: result.TokensAfter, CreatedAt: time.Now().UTC()}
			if out.Structured() {
				return out.WriteValue(v)
			}
			_, err = fmt.Fprintf(f.IO.Out, "compacted: kept from seq %d, ~%d → ~%d tokens\n", v.KeptFromSeq, v.TokensBefore, v.TokensAfter)
			return err
		},
	}
	c.Flags().StringVarP(&o.Profile, "profile", "p", "", "profile whose model summarises")
	c.Flags().StringVar(&o.Provider, "provider", "", "protocol")
	c.Flags().StringVarP(&o.Model, "model", "m", "", "model")
	c.Flags().StringVar(&o.BaseURL, "base-url", "", "API base URL")
	return c
}
