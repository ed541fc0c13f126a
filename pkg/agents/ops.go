package agents

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/ids"
	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// SyncResult is tavo_subagent's result in sync mode: how the child's run
// ended.
type SyncResult struct {
	SubSessionID string       `json:"sub_session_id"`
	RunID        string       `json:"run_id"`
	Status       string       `json:"status"`
	Text         string       `json:"text"`
	Structured   any          `json:"structured,omitempty"`
	Usage        events.Usage `json:"usage"`
}

// Started is tavo_subagent's result in async mode, and
// tavo_subagent_send's when it started a run.
type Started struct {
	SubSessionID string `json:"sub_session_id"`
	RunID        string `json:"run_id"`
	// Status is "running", or "queued" for a message to a busy child.
	Status string `json:"status"`
}

// Spawn starts a child of the calling run (tavo_subagent): a new session
// titled title with instruction as its first prompt. Async returns at
// once; sync waits for the child's run to end (the call's timeout clock
// stopped meanwhile: the child is bounded by the root's --timeout).
func (n *Node) Spawn(ctx context.Context, env *tools.Env, title, instruction, mode string) (any, error) {
	if mode == "" {
		mode = ModeAsync
	}
	if err := n.t.reserve(n.depth + 1); err != nil {
		return nil, err
	}
	c := n.newChild(ids.New("ses", n.t.now()), title)
	runID, err := n.start(ctx, c, instruction, mode)
	if err != nil {
		return nil, err
	}
	if mode == ModeAsync {
		return Started{SubSessionID: c.sessionID, RunID: runID, Status: store.StatusRunning}, nil
	}
	resume := env.WaitForPerson()
	defer resume()
	c.mu.Lock()
	done := c.done
	c.mu.Unlock()
	select {
	case <-done:
	case <-ctx.Done():
		// The parent is being stopped: its Stop hook stops the child.
		return nil, ctx.Err()
	}
	c.mu.Lock()
	res := c.result
	c.mu.Unlock()
	return SyncResult{
		SubSessionID: c.sessionID, RunID: runID, Status: res.Status, Text: res.Text,
		Structured: res.Structured, Usage: events.UsageFrom(res.Usage),
	}, nil
}

// ListItem is one entry of tavo_subagent_list.
type ListItem struct {
	SubSessionID string `json:"sub_session_id"`
	Title        string `json:"title"`
	Status       string `json:"status"`
	CreatedAt    string `json:"created_at"`
	UpdatedAt    string `json:"updated_at"`
}

// List returns the calling run's descendants that are active (running),
// depth-first (tavo_subagent_list).
func (n *Node) List() []ListItem {
	out := []ListItem{}
	var walk func(m *Node)
	walk = func(m *Node) {
		m.mu.Lock()
		kids := append([]*Node(nil), m.children...)
		m.mu.Unlock()
		for _, k := range kids {
			k.mu.Lock()
			if k.running {
				out = append(out, ListItem{
					SubSessionID: k.sessionID, Title: k.title, Status: store.StatusRunning,
					CreatedAt: k.createdAt.UTC().Format(time.RFC3339), UpdatedAt: k.updatedAt.UTC().Format(time.RFC3339),
				})
			}
			k.mu.Unlock()
			walk(k)
		}
	}
	walk(n)
	return out
}

// MessageResult is tavo_subagent_message's result; the message fields are
// null when the child has no message yet.
type MessageResult struct {
	SubSessionID     string  `json:"sub_session_id"`
	SubSessionTitle  string  `json:"sub_session_title"`
	SubSessionStatus string  `json:"sub_session_status"`
	MessageID        *string `json:"message_id"`
	Role             *string `json:"role"`
	Content          string  `json:"content"`
	CreatedAt        *string `json:"created_at"`
}

// Message returns the newest stored message of a descendant
// (tavo_subagent_message).
func (n *Node) Message(ctx context.Context, id string) (*MessageResult, error) {
	ts, err := n.target(ctx, id)
	if err != nil {
		return nil, err
	}
	status := ts.Status
	if status == "" {
		status = "idle"
	}
	if m := n.t.node(id); m != nil {
		status = m.status()
	}
	out := &MessageResult{SubSessionID: id, SubSessionTitle: ts.Title, SubSessionStatus: status}
	msgs, err := n.t.st.ReadMessages(ctx, id, 0, 1)
	if errors.Is(err, store.ErrNotFound) {
		// Its first run has not stored the session yet.
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading sub-agent %s: %w", id, err)
	}
	if len(msgs) == 1 {
		m := msgs[0]
		mid, role, at := fmt.Sprintf("%s:%d", id, m.Seq), string(m.Message.Role), m.CreatedAt.Format(time.RFC3339)
		out.MessageID, out.Role, out.CreatedAt = &mid, &role, &at
		out.Content = messageText(m)
	}
	return out, nil
}

// messageText is a stored message as text: its text parts, else its tool
// results' contents.
func messageText(m store.Message) string {
	if t := m.Message.Text(); t != "" {
		return t
	}
	var parts []string
	for _, p := range m.Message.Parts {
		if p.ToolResult != nil {
			parts = append(parts, p.ToolResult.Content)
		}
	}
	return strings.Join(parts, "\n")
}

// StoppedSession is one entry of tavo_subagent_stop's result.
type StoppedSession struct {
	SubSessionID string `json:"sub_session_id"`
	Title        string `json:"title"`
}

// StopResult is tavo_subagent_stop's result.
type StopResult struct {
	StoppedSessions []StoppedSession `json:"stopped_sessions"`
	TotalStopped    int              `json:"total_stopped"`
}

// StopSub stops a descendant and everything below it, leaves first
// (tavo_subagent_stop); runs that had ended already are not listed.
func (n *Node) StopSub(ctx context.Context, id string) (*StopResult, error) {
	if _, err := n.target(ctx, id); err != nil {
		return nil, err
	}
	out := &StopResult{StoppedSessions: []StoppedSession{}}
	if m := n.t.node(id); m != nil {
		for _, s := range m.stop("stopped by its parent (tavo_subagent_stop)") {
			out.StoppedSessions = append(out.StoppedSessions, StoppedSession{SubSessionID: s.sessionID, Title: s.title})
		}
	}
	out.TotalStopped = len(out.StoppedSessions)
	return out, nil
}

// Send gives a descendant a message (tavo_subagent_send): a running one
// gets it before its next request ("queued"); an idle one starts its next
// run with it as the prompt ("running").
func (n *Node) Send(ctx context.Context, id, message string) (*Started, error) {
	ts, err := n.target(ctx, id)
	if err != nil {
		return nil, err
	}
	m := n.t.node(id)
	if m == nil {
		// A descendant from an earlier run of the tree: it joins this
		// run's tree below the caller.
		m = &Node{t: n.t, parent: n, depth: ts.Depth, sessionID: id, title: ts.Title, changed: make(chan struct{}), createdAt: ts.CreatedAt}
		n.t.mu.Lock()
		n.t.nodes[id] = m
		n.t.mu.Unlock()
		n.mu.Lock()
		n.children = append(n.children, m)
		n.mu.Unlock()
	}
	m.mu.Lock()
	if m.running {
		m.inbox = append(m.inbox, message)
		close(m.changed)
		m.changed = make(chan struct{})
		runID := m.runID
		m.mu.Unlock()
		return &Started{SubSessionID: id, RunID: runID, Status: "queued"}, nil
	}
	m.mu.Unlock()
	if err := n.t.reserve(m.depth); err != nil {
		return nil, err
	}
	runID, err := m.parent.start(ctx, m, message, ModeAsync)
	if err != nil {
		return nil, err
	}
	return &Started{SubSessionID: id, RunID: runID, Status: store.StatusRunning}, nil
}

// node returns the in-process node of session id, nil when none.
func (t *tree) node(id string) *Node {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.nodes[id]
}

// target checks that session id is a descendant of n's session, never n's
// own: anything else is permission_denied (an unknown id too, so that ids
// outside the tree reveal nothing).
func (n *Node) target(ctx context.Context, id string) (*store.TreeSession, error) {
	id = strings.TrimSpace(id)
	if id == n.sessionID {
		return nil, tools.Errorf(tools.CodePermissionDenied, "a run cannot target its own session: pass the sub_session_id of one of your sub-agents")
	}
	denied := tools.Errorf(tools.CodePermissionDenied, "session "+id+" is not one of your sub-agents (tavo_subagent_list lists them)")
	if m := n.t.node(id); m != nil && m.parent != nil {
		// Known in this process: the nodes' parents say it.
		for p := m.parent; p != nil; p = p.parent {
			if p == n {
				return &store.TreeSession{Session: store.Session{ID: id, Title: m.title, CreatedAt: m.createdAt},
					ParentSessionID: m.parent.sessionID, Depth: m.depth}, nil
			}
		}
		return nil, denied
	}
	ts, err := n.t.st.TreeSession(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, denied
	}
	if err != nil {
		return nil, fmt.Errorf("reading session %s: %w", id, err)
	}
	for p, hops := ts.ParentSessionID, 0; p != "" && hops < 64; hops++ {
		if p == n.sessionID {
			// Depths count from this run's root, which need not be the
			// stored tree's (tavo session send CHILD roots a new tree).
			ts.Depth = n.depth + hops + 1
			return ts, nil
		}
		up, err := n.t.st.TreeSession(ctx, p)
		if err != nil {
			break
		}
		p = up.ParentSessionID
	}
	return nil, denied
}
