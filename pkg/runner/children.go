package runner

import (
	"context"

	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/providers"
)

// Children is what a run needs of the sub-agents it starts (SPEC §13;
// pkg/agents implements it). The runner calls it from the run's goroutine;
// the children themselves run on their own.
type Children interface {
	// Notes returns the messages that arrived for the run since the last
	// call (a sub-agent's completion notice, a message sent to this run
	// while it was busy), to add before the next request.
	Notes() []providers.Message
	// Wait blocks while sub-agents of the run are running, or until ctx
	// ends. It reports whether notes are waiting: the run, which had given
	// its final answer, then gets one more round with them.
	Wait(ctx context.Context) bool
	// Stop stops the sub-agents still running, leaves first, and returns
	// once each has ended with its own run.completed.
	Stop(cause error)
	// Usage is the usage of the run's sub-agent runs that ended (their own
	// sub-agents included), in total and for each.
	Usage() (providers.Usage, []events.SubagentUsage)
}

// takeNotes adds the sub-agents' notes as messages.
func (r *run) takeNotes() {
	if r.opts.Children != nil {
		r.msgs = append(r.msgs, r.opts.Children.Notes()...)
	}
}

// awaitChildren is called when the model answered without tool calls: it
// waits for the run's running sub-agents and reports whether the run gets
// one more round (their notices, or messages, are waiting). That round is
// allowed even past --max-rounds, as the schema repair is: the answer
// needs the children's results.
func (r *run) awaitChildren(ctx context.Context) bool {
	if r.opts.Children == nil || r.final || !r.opts.Children.Wait(ctx) {
		return false
	}
	if r.round >= r.opts.MaxRounds {
		r.opts.MaxRounds = r.round + 1
	}
	return true
}

// endChildren stops the sub-agents still running, before run.completed,
// and adds their usage to res.
func (r *run) endChildren(res *Result) {
	if r.opts.Children == nil {
		return
	}
	r.opts.Children.Stop(&StopCause{Reason: "its parent run ended (" + res.Status + ")"})
	total, each := r.opts.Children.Usage()
	res.Usage = res.Usage.Add(total)
	r.subagents = each
}

// completedUsage is run.completed's usage: u with each sub-agent's share.
func (r *run) completedUsage(u providers.Usage) events.Usage {
	eu := r.usageOf(u)
	eu.Subagents = r.subagents
	return eu
}
