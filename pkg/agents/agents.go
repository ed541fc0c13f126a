// Package agents is tavo's sub-agents (SPEC §13): a run that delegates parts
// of its task to children, each a new session started from an empty context
// with a precise instruction. A root run and the children it starts (and
// theirs, to a depth limit) form a tree that lives in the root's process:
// every child run is bound to its session with session.Bind like any run,
// journals its own events, runs the root's provider, profile and tools with
// the parent's limits, inside the root run's --timeout, and asks a person
// its questions through the root's ask channel.
//
// A run joins a tree through runner.Options.Children (the *Node of the run)
// and its context (FromContext), which is how the five tavo_subagent* tools
// (pkg/tools/subagent) find the run that calls them.
package agents

import (
	"context"
	"sync"
	"time"

	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/runner"
	"github.com/tavo-cli/tavo/pkg/session"
	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/tools"
	"github.com/tavo-cli/tavo/pkg/tools/subagent"
)

// The model-facing names of the sub-agent tools (their one home is
// pkg/tools/subagent).
const (
	SpawnName   = subagent.SpawnName
	ListName    = subagent.ListName
	MessageName = subagent.MessageName
	StopName    = subagent.StopName
	SendName    = subagent.SendName
)

// ToolNames are the five sub-agent tools; a child at the depth limit runs
// without them.
var ToolNames = subagent.Names

// Modes of tavo_subagent.
const (
	ModeAsync = "async"
	ModeSync  = "sync"
)

// Limits bound a tree (config.Subagents; SPEC §13).
type Limits struct {
	// MaxDepth is the deepest a child may be (the root is 0).
	MaxDepth int
	// MaxRunning is how many children of the tree may run at once.
	MaxRunning int
	// MaxPerRun is how many child runs the root run may start in all.
	MaxPerRun int
}

// RootOptions say how a root run's children are run.
type RootOptions struct {
	// Store is where the children's sessions, runs and journals go.
	Store  *store.Store
	Limits Limits
	// System is the system prompt as the run was given it, before
	// session.Bind added the memories (a child's binding adds them again).
	System string
	// Config is how the root's session is run; each child session keeps
	// it too, so that `tavo session send CHILD` runs it the same way.
	Config *session.Config
}

// tree is what the runs of one root run share.
type tree struct {
	st     *store.Store
	limits Limits
	system string
	config *session.Config
	// ask and askEmit are the root's ask channel and event stream: a
	// child's question goes through them, labelled with its title.
	ask     tools.Asker
	askEmit *events.Emitter
	// confirm is the root's confirmer: a child's tool confirmations go
	// through it the same way, labelled with the child's title.
	confirm tools.Confirmer
	now     func() time.Time

	mu      sync.Mutex
	running int // child runs running now
	started int // child runs started by this root run
	nodes   map[string]*Node
	trimmed *tools.Catalog // the catalog without the sub-agent tools

	wg sync.WaitGroup // every child run's goroutine
}

// Node is one session of a tree as this process runs it: the root run's
// session, or a child's. It implements runner.Children for its run.
type Node struct {
	t         *tree
	parent    *Node // nil for the root
	depth     int
	sessionID string
	title     string
	createdAt time.Time
	// opts are the options of the node's runs; children start from a copy.
	opts runner.Options

	mu        sync.Mutex
	runID     string
	ctx       context.Context
	cancel    context.CancelCauseFunc
	emit      *events.Emitter // the current run's stream
	running   bool
	create    bool // the session is not stored yet: the first run stores it
	sync      bool // the current run was started by a sync tavo_subagent
	closing   bool // the run is ending: it starts no more children
	done      chan struct{}
	result    *runner.Result
	stopped   string // why the parent stopped the current run, "" if it did not
	updatedAt time.Time
	children  []*Node
	active    int           // children running now
	changed   chan struct{} // closed (and replaced) when a child ends or a message arrives
	notes     []providers.Message
	inbox     []string
	usage     providers.Usage
	each      []events.SubagentUsage
}

type nodeKey struct{}

// FromContext returns the node of the run ctx belongs to, nil outside a
// tree.
func FromContext(ctx context.Context) *Node {
	n, _ := ctx.Value(nodeKey{}).(*Node)
	return n
}

// withNode returns ctx carrying n, for FromContext and, as their Agent,
// for the sub-agent tools.
func withNode(ctx context.Context, n *Node) context.Context {
	return subagent.WithAgent(context.WithValue(ctx, nodeKey{}, n), toolAgent{n})
}

// toolAgent is a node as the sub-agent tools see it.
type toolAgent struct{ n *Node }

func (a toolAgent) Spawn(ctx context.Context, env *tools.Env, title, instruction, mode string) (any, error) {
	return a.n.Spawn(ctx, env, title, instruction, mode)
}

func (a toolAgent) List() any { return a.n.List() }

func (a toolAgent) Message(ctx context.Context, id string) (any, error) { return a.n.Message(ctx, id) }

func (a toolAgent) Stop(ctx context.Context, id string) (any, error) { return a.n.StopSub(ctx, id) }

func (a toolAgent) Send(ctx context.Context, id, message string) (any, error) {
	return a.n.Send(ctx, id, message)
}

// Root makes the run opts describes the root of a tree: it sets
// opts.Children and returns the context to run it in, which the sub-agent
// tools find it by. Call it last, once opts is complete (bound to its
// session, with its emitter, asker and confirmer): children start from a
// copy of it. ctx is the run's context (its --timeout and cancellation
// reach every child).
func Root(ctx context.Context, opts *runner.Options, ro RootOptions) context.Context {
	t := &tree{
		st: ro.Store, limits: ro.Limits, system: ro.System, config: ro.Config,
		ask: opts.Asker, askEmit: opts.Emitter, confirm: opts.Confirmer, now: time.Now,
		nodes: map[string]*Node{},
	}
	n := &Node{
		t: t, sessionID: opts.SessionID, runID: opts.RunID, title: "root",
		ctx: ctx, emit: opts.Emitter, running: true, done: make(chan struct{}),
		changed: make(chan struct{}), createdAt: t.now(),
	}
	opts.Children = n
	n.opts = *opts
	t.nodes[n.sessionID] = n
	return withNode(ctx, n)
}

// SessionID is the node's session.
func (n *Node) SessionID() string { return n.sessionID }

// RunID is the node's current (or last) run.
func (n *Node) RunID() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.runID
}

// status is the node's status as the tools report it: "running", or its
// last run's status.
func (n *Node) status() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	switch {
	case n.running:
		return store.StatusRunning
	case n.result != nil:
		return n.result.Status
	}
	return "idle"
}

// emitEvent publishes an event in the node's current run stream.
func (n *Node) emitEvent(t events.Type, p any) {
	n.mu.Lock()
	em := n.emit
	n.mu.Unlock()
	if em != nil {
		em.Emit(t, p)
	}
}
