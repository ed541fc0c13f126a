package agents

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/ids"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/resources"
	"github.com/tavo-cli/tavo/pkg/runner"
	"github.com/tavo-cli/tavo/pkg/session"
	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// reserve counts one more child run against the tree's limits, or says
// which limit it would pass (limit_exceeded).
func (t *tree) reserve(depth int) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case depth > t.limits.MaxDepth:
		return tools.Errorf(tools.CodeLimitExceeded, fmt.Sprintf(
			"a sub-agent may be at most %d deep ([subagents] max_depth): do this part yourself", t.limits.MaxDepth))
	case t.running >= t.limits.MaxRunning:
		return tools.Errorf(tools.CodeLimitExceeded, fmt.Sprintf(
			"%d sub-agents are running, the most at once ([subagents] max_running): wait for one to finish, or stop one", t.running))
	case t.started >= t.limits.MaxPerRun:
		return tools.Errorf(tools.CodeLimitExceeded, fmt.Sprintf(
			"this run has started %d sub-agent runs, the most it may ([subagents] max_per_run): finish the task with what you have", t.started))
	}
	t.running++
	t.started++
	return nil
}

func (t *tree) release() {
	t.mu.Lock()
	t.running--
	t.mu.Unlock()
}

// catalogAt returns the catalog a child at depth runs with: the parent's,
// without the sub-agent tools once no deeper child is allowed.
func (t *tree) catalogAt(depth int, c *tools.Catalog) *tools.Catalog {
	if depth < t.limits.MaxDepth || c == nil {
		return c
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.trimmed != nil {
		return t.trimmed
	}
	drop := map[string]bool{}
	for _, n := range ToolNames {
		drop[n] = true
	}
	var kept []tools.Tool
	for _, s := range c.Specs() {
		if tl, ok := c.Get(s.Name); ok && !drop[s.Name] {
			kept = append(kept, tl)
		}
	}
	trimmed, err := tools.NewCatalog(kept...)
	if err != nil {
		// The tools were all accepted once; keep the parent's catalog
		// (tavo_subagent still refuses with limit_exceeded).
		return c
	}
	trimmed.SetResources(c.Resources())
	t.trimmed = trimmed
	return trimmed
}

// newChild makes the node of a new child session of n, titled title. The
// session is stored by the child's first run, on its own goroutine, so that
// starting several children costs the parent little; until then the tools
// know the child from its node.
func (n *Node) newChild(id, title string) *Node {
	c := &Node{
		t: n.t, parent: n, depth: n.depth + 1, sessionID: id, title: title,
		changed: make(chan struct{}), createdAt: n.t.now(), create: true,
	}
	n.t.mu.Lock()
	n.t.nodes[id] = c
	n.t.mu.Unlock()
	n.mu.Lock()
	n.children = append(n.children, c)
	n.mu.Unlock()
	return c
}

// childOptions are the options of a child's run: the parent's provider,
// profile, tools and limits, with everything that belongs to one run (its
// session, history, stream, schema, the driver's guidance) left for the
// child's own binding to fill.
func (n *Node) childOptions(c *Node, prompt string) runner.Options {
	n.mu.Lock()
	o := n.opts
	n.mu.Unlock()
	o.System = n.t.system
	o.History, o.Pending, o.OnMessages, o.Compactor = nil, nil, nil, nil
	o.Emitter, o.Guidance, o.BeforeCompleted, o.Schema = nil, nil, nil, nil
	o.RunID, o.SessionID, o.Resume = "", "", ""
	o.Started.System, o.Started.ResumedFrom = n.t.system, ""
	o.Prompt = textMessage(prompt)
	if o.Attachments != nil {
		o.Attachments = resources.NewAttachments()
	}
	o.Catalog = n.t.catalogAt(c.depth, o.Catalog)
	o.Asker = n.t.askerFor(c)
	o.Confirmer = n.t.confirmerFor(c)
	o.Children = c
	return o
}

func textMessage(text string) providers.Message {
	return providers.Message{Role: providers.RoleUser, Parts: []providers.Part{{Type: providers.PartText, Text: text}}}
}

// start starts a run of child c with prompt, counted against the limits
// (the caller reserved it), and returns its run id at once: the run is
// bound to c's session and runs in its own goroutine, in a context derived
// from n's run, so that starting several children costs the parent little.
func (n *Node) start(ctx context.Context, c *Node, prompt, mode string) (string, error) {
	n.mu.Lock()
	closing, parentCtx, parentRun := n.closing || !n.running, n.ctx, n.runID
	n.mu.Unlock()
	if closing || parentCtx.Err() != nil {
		n.t.release()
		return "", tools.Errorf(tools.CodeCancelled, "the run is ending: it starts no more sub-agents")
	}
	o := n.childOptions(c, prompt)
	runID := ids.New("run", n.t.now())
	runCtx, cancel := context.WithCancelCause(parentCtx)

	c.mu.Lock()
	c.runID, c.ctx, c.cancel, c.emit = runID, runCtx, cancel, nil
	c.running, c.sync, c.closing, c.stopped = true, mode == ModeSync, false, ""
	c.done, c.result = make(chan struct{}), nil
	c.usage, c.each = providers.Usage{}, nil
	c.updatedAt = n.t.now()
	c.mu.Unlock()

	n.mu.Lock()
	n.active++
	n.mu.Unlock()
	n.emitEvent(events.SubagentStarted, events.SubagentStartedP{
		SubSessionID: c.sessionID, RunID: runID, Title: c.title, Mode: mode, Depth: c.depth,
	})
	n.t.wg.Add(1)
	go func() {
		defer n.t.wg.Done()
		res := c.run(runCtx, cancel, o, prompt, runID, parentRun)
		cancel(nil)
		c.ended(res)
	}()
	return runID, nil
}

// run binds run runID to c's session, as any run is bound, and runs it.
// The binding is made even when the tree is being stopped, so that the run
// is recorded and its journal ends with its own run.completed.
func (c *Node) run(ctx context.Context, cancel context.CancelCauseFunc, o runner.Options, prompt, runID, parentRun string) *runner.Result {
	st := c.t.st
	bindCtx := context.WithoutCancel(ctx)
	c.mu.Lock()
	create := c.create
	c.create = false
	c.mu.Unlock()
	bo := session.BindOptions{
		SessionID: c.sessionID,
		RunID:     runID,
		Prompt:    prompt,
		Config:    c.t.config,
		Meta: store.RunMeta{Profile: o.ProfileName, Provider: string(protocolOf(o.Provider)), Model: o.Model,
			ParentRunID: parentRun},
	}
	if create {
		// The session is stored with the run's start, in one write: a
		// sub-agent starts on its parent's critical path.
		bo.SessionID, bo.NewSessionID = "", c.sessionID
		bo.Meta.Child = &store.ChildSession{Title: c.title, ParentSessionID: c.parent.sessionID}
		// How the session is run goes in the same write too.
		if cfg := c.t.config; cfg != nil && !cfg.IsZero() {
			if doc, err := json.Marshal(cfg); err == nil {
				bo.Meta.Child.Config, bo.Config = doc, nil
			}
		}
	}
	b, err := session.Bind(bindCtx, st, bo)
	if err != nil {
		msg := "the sub-agent's run could not start: " + err.Error()
		if errors.Is(err, session.ErrBusy) {
			msg = "the sub-agent's session is busy with a run in another process"
		}
		return &runner.Result{Status: events.StatusFailed, ExitCode: events.ExitFailed, Err: &events.ErrorInfo{Code: "internal_error", Message: msg}}
	}
	b.Configure(&o)
	o.Emitter = events.NewEmitter(o.RunID, o.SessionID, nil, b)
	c.mu.Lock()
	c.emit, c.opts = o.Emitter, o
	c.mu.Unlock()
	b.WatchCancel(ctx, cancel)
	res := runner.Run(withNode(ctx, c), o)
	if err := b.Finish(bindCtx, res); err != nil && res.Status == events.StatusCompleted {
		res.Status, res.ExitCode = events.StatusFailed, events.ExitFailed
		res.Err = &events.ErrorInfo{Code: "store_failed", Message: err.Error()}
	}
	return res
}

func protocolOf(p providers.Provider) providers.Protocol {
	if p == nil {
		return ""
	}
	return p.Protocol()
}

// ended records how c's run ended, tells its parent (an event in the
// parent's stream, its usage, and, for an async child, a notice before the
// parent's next request) and starts the next run with messages sent too
// late for this one.
func (c *Node) ended(res *runner.Result) {
	p := c.parent
	c.mu.Lock()
	c.running, c.result, c.updatedAt = false, res, c.t.now()
	stopped, isSync, runID := c.stopped, c.sync, c.runID
	late := c.inbox
	c.inbox = nil
	done := c.done
	c.mu.Unlock()
	c.t.release()

	usage := events.UsageFrom(res.Usage)
	if stopped != "" {
		p.emitEvent(events.SubagentStopped, events.SubagentStoppedP{
			SubSessionID: c.sessionID, RunID: runID, Title: c.title, Status: res.Status, Usage: usage, Reason: stopped,
		})
	} else {
		p.emitEvent(events.SubagentCompleted, events.SubagentCompletedP{
			SubSessionID: c.sessionID, RunID: runID, Title: c.title, Status: res.Status, Usage: usage, Error: res.Err,
		})
	}
	p.mu.Lock()
	p.active--
	p.usage = p.usage.Add(res.Usage)
	p.each = append(p.each, events.SubagentUsage{SubSessionID: c.sessionID, RunID: runID, Title: c.title, Status: res.Status, Usage: usage})
	if !isSync && stopped == "" {
		p.notes = append(p.notes, notice(c, runID, res))
	}
	close(p.changed)
	p.changed = make(chan struct{})
	p.mu.Unlock()
	close(done)

	if len(late) > 0 && stopped == "" {
		// Never dropped: they start the child's next run (tavo_subagent_send
		// to an idle child does the same).
		if err := c.t.reserve(c.depth); err == nil {
			_, _ = p.start(context.Background(), c, strings.Join(late, "\n\n"), ModeAsync)
		}
	}
}

// notice is the message that tells a parent an async child ended.
func notice(c *Node, runID string, res *runner.Result) providers.Message {
	doc := map[string]any{
		"sub_session_id": c.sessionID, "run_id": runID, "title": c.title, "status": res.Status, "text": res.Text,
	}
	if res.Structured != nil {
		doc["structured"] = res.Structured
	}
	if res.Err != nil && res.Status != events.StatusCompleted {
		doc["error"] = res.Err
	}
	b, _ := json.Marshal(doc)
	return textMessage("Sub-agent finished (tavo_subagent, async): " + string(b))
}

// Notes implements runner.Children: completion notices of async children,
// then messages sent to this run while it was busy.
func (n *Node) Notes() []providers.Message {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := n.notes
	n.notes = nil
	for _, m := range n.inbox {
		out = append(out, textMessage("Message from the agent that started you (tavo_subagent_send): "+m))
	}
	n.inbox = nil
	return out
}

// Wait implements runner.Children: it blocks while children run and
// reports whether notes wait for one more round. A run its parent is
// stopping waits for its own stop, and a run whose context ended reports
// true, so that the runner's next turn ends it as stopped rather than
// completed.
func (n *Node) Wait(ctx context.Context) bool {
	for {
		n.mu.Lock()
		busy := n.active > 0 || n.stopped != ""
		pending, ch := len(n.notes) > 0 || len(n.inbox) > 0, n.changed
		n.mu.Unlock()
		if !busy {
			return pending
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return true
		}
	}
}

// Stop implements runner.Children: the run is ending, so its running
// children are stopped, leaves first, and waited for.
func (n *Node) Stop(cause error) {
	reason := "its parent run ended"
	if cause != nil {
		reason = cause.Error()
	}
	n.mu.Lock()
	n.closing = true
	kids := append([]*Node(nil), n.children...)
	n.mu.Unlock()
	for _, k := range kids {
		k.stop(reason)
	}
	if n.parent == nil {
		n.mu.Lock()
		n.running = false
		n.mu.Unlock()
	}
}

// stop stops c's run and its descendants' runs, leaves first, waits for
// each to end, and returns the ones it stopped in that order.
func (c *Node) stop(reason string) []*Node {
	c.mu.Lock()
	if c.running {
		// From now on the run cannot end as completed: its children's
		// stops must not let it give its final answer first.
		c.stopped = reason
	}
	kids := append([]*Node(nil), c.children...)
	c.mu.Unlock()
	var out []*Node
	for _, k := range kids {
		out = append(out, k.stop(reason)...)
	}
	c.mu.Lock()
	if !c.running {
		c.mu.Unlock()
		return out
	}
	cancel, done := c.cancel, c.done
	c.mu.Unlock()
	cancel(&runner.StopCause{Reason: reason, ExitCode: events.ExitInterrupted})
	<-done
	return append(out, c)
}

// Usage implements runner.Children.
func (n *Node) Usage() (providers.Usage, []events.SubagentUsage) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.usage, append([]events.SubagentUsage(nil), n.each...)
}
