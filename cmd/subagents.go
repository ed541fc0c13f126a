package cmd

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/events"

	"github.com/tavo-cli/tavo/pkg/agents"
	"github.com/tavo-cli/tavo/pkg/store"
)

// rootOfTree makes the run s sets up the root of a sub-agent tree (SPEC §13)
// when its tools include tavo_subagent, and returns the context to run it
// in. The options must be complete: children start from a copy.
func rootOfTree(ctx context.Context, f *Factory, st *store.Store, s *runSetup) context.Context {
	if !s.opts.ToolsEnabled || s.opts.Catalog == nil {
		return ctx
	}
	if _, ok := s.opts.Catalog.Get(agents.SpawnName); !ok {
		return ctx
	}
	cfg, err := f.Config()
	if err != nil {
		return ctx
	}
	depth, running, perRun := cfg.Subagents.Limits()
	return agents.Root(ctx, &s.opts, agents.RootOptions{
		Store:  st,
		Limits: agents.Limits{MaxDepth: depth, MaxRunning: running, MaxPerRun: perRun},
		System: s.settings.System,
		Config: &s.remember,
	})
}

// treeRow is a member of a session tree as `session tree` and `session
// list --root` print it.
type treeRow struct {
	sessionRow
	ParentSessionID string `json:"parent_session_id"`
	RootSessionID   string `json:"root_session_id"`
	Depth           int    `json:"depth"`
	// Status is the status of the session's newest run, "" when none.
	Status string `json:"status"`
}

func toTreeRows(members []store.TreeSession) []treeRow {
	rows := make([]treeRow, 0, len(members))
	for i := range members {
		m := &members[i]
		rows = append(rows, treeRow{sessionRow: toSessionRow(&m.Session), ParentSessionID: m.ParentSessionID,
			RootSessionID: m.RootSessionID, Depth: m.Depth, Status: m.Status})
	}
	return rows
}

// SessionTreeOptions are the inputs of `tavo session tree`.
type SessionTreeOptions struct {
	Factory *Factory
	Ctx     context.Context
	ID      string
}

// NewCmdSessionTree builds `tavo session tree`; runF, when not nil, runs
// instead of sessionTreeRun (for tests).
func NewCmdSessionTree(f *Factory, runF func(*SessionTreeOptions) error) *cobra.Command {
	o := &SessionTreeOptions{Factory: f}
	return &cobra.Command{
		Use:   "tree ID",
		Short: "Show the tree of sub-agent sessions a session belongs to",
		Long: `Show the tree of sub-agent sessions (docs/subagents.md) that session ID belongs
to, from its root: each session under the one that started it, with the status
of its newest run. -o json prints {"sessions":[…]} in the same order, each with
parent_session_id, root_session_id and depth.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Ctx, o.ID = cmd.Context(), args[0]
			return runOr(runF, sessionTreeRun, o)
		},
		ValidArgsFunction: completeSessions(f),
		Example: `  tavo session tree ses_01J…
  tavo session tree ses_01J… -o json --jq '.sessions[] | select(.status=="failed") | .id'`,
	}
}

func sessionTreeRun(o *SessionTreeOptions) error {
	f := o.Factory
	out, st, err := storeOutputContext(o.Ctx, f)
	if err != nil {
		return err
	}
	defer st.Close()
	members, err := st.SessionTree(o.Ctx, o.ID)
	if err != nil {
		return sessionError(err, o.ID)
	}
	rows := toTreeRows(members)
	if out.Structured() {
		return writePage(f, out, "sessions", rows, "")
	}
	for _, r := range rows {
		indent := ""
		if r.Depth > 0 {
			indent = strings.Repeat("   ", r.Depth-1) + "└─ "
		}
		status := r.Status
		if status == "" {
			status = "no run"
		}
		fmt.Fprintf(f.IO.Out, "%s%s  %s  (%s)\n", indent, r.ID, clip(r.Title, 60), status)
	}
	return nil
}

// sessionListTree is `tavo session list --root ID`: the session and every
// session below it, parents first.
func sessionListTree(o *SessionListOptions) error {
	f := o.Factory
	if o.Cursor != "" {
		return usageError(errors.New("--root lists a whole tree in one page: drop --cursor"))
	}
	out, st, err := storeOutputContext(o.Ctx, f)
	if err != nil {
		return err
	}
	defer st.Close()
	members, err := st.Subtree(o.Ctx, o.Root)
	if err != nil {
		return sessionError(err, o.Root)
	}
	rows := toTreeRows(members)
	if out.Structured() {
		return writePage(f, out, "sessions", rows, "")
	}
	t := cli.NewTable(f.IO, "ID", "TITLE", "PARENT", "DEPTH", "STATUS", "ACTIVE RUN")
	for _, r := range rows {
		t.AddRow(r.ID, clip(r.Title, 60), r.ParentSessionID, strconv.Itoa(r.Depth), r.Status, r.ActiveRun)
	}
	return t.Render()
}

// deleteSessions deletes one session of `tavo session delete`, with the
// sessions below it under --recursive, and returns the ids deleted (their
// files go next). A session with sub-agent sessions needs --recursive: a
// tree is deleted as one unit, and not at all while any member runs.
func deleteSessions(ctx context.Context, st *store.Store, id string, recursive bool) ([]string, error) {
	members, err := st.Subtree(ctx, id)
	if errors.Is(err, store.ErrNotFound) || err == nil && len(members) <= 1 {
		// One session (or none: deleting it again is no error).
		if err := st.DeleteSession(ctx, id); err != nil {
			return nil, sessionError(err, id)
		}
		return []string{id}, nil
	}
	if err != nil {
		return nil, sessionError(err, id)
	}
	if !recursive {
		return nil, usageError(fmt.Errorf("session %s has %d sub-agent sessions below it: add --recursive to delete them with it (see tavo session tree %s)",
			id, len(members)-1, id))
	}
	if _, err := st.DeleteSessionTree(ctx, id); err != nil {
		if errors.Is(err, store.ErrSessionBusy) {
			return nil, &ExitError{Code: events.ExitSession, Err: fmt.Errorf("session_busy: a session of the tree of %q is running; wait for it or `tavo runs cancel` it", id)}
		}
		return nil, sessionError(err, id)
	}
	ids := make([]string, 0, len(members))
	for _, m := range members {
		ids = append(ids, m.ID)
	}
	return ids, nil
}

// childRuns is `tavo runs list --parent RUN`: the runs that run started as
// sub-agents, oldest first.
func childRuns(ctx context.Context, st *store.Store, parent string) ([]store.Run, error) {
	if _, err := st.GetRun(ctx, parent); err != nil {
		return nil, runError(err, parent)
	}
	runs, err := st.ChildRuns(ctx, parent)
	if err != nil {
		return nil, failedError(err)
	}
	return runs, nil
}
