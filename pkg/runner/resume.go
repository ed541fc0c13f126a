package runner

import (
	"context"
	"encoding/json"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// StartInfo is what run.started reports beyond the run's own options.
type StartInfo struct {
	BaseURL     string
	System      string
	AllowTools  []string
	Sources     map[string]string
	ResumedFrom string
}

// Pending is the unfinished part of a round that a resumed run completes
// before its first model request: the assistant message's tool calls that
// still need a result, in order, after the results already had (Done).
// The History given with it ends with that assistant message.
type Pending struct {
	// Done are the results of the round's calls that ran before it stopped.
	Done []providers.Part
	// Calls are the calls to run now (the unanswered question first).
	Calls []providers.ToolCall
}

// runPending completes the pending calls of a resumed run, once, in its
// first round before the model request: the calls run as any others (an
// unanswered tavo_ask_user asks again, through the run's Asker), and the
// round's tool message, with the results already had, is stored at once.
// It returns a result when the run must end.
func (r *run) runPending(ctx context.Context) *Result {
	p := r.opts.Pending
	if p == nil {
		return nil
	}
	r.opts.Pending = nil
	if !r.toolsOn() {
		r.msgs = append(r.msgs, providers.Message{Role: providers.RoleTool,
			Parts: append(append([]providers.Part(nil), p.Done...), unrunParts(p.Calls, "not run: tools are off in the resumed run")...)})
	} else {
		r.carried = append([]providers.Part(nil), p.Done...)
		if res := r.runTools(ctx, p.Calls); res != nil {
			return res
		}
	}
	if err := r.store(); err != nil {
		return r.failed("store_failed", err.Error())
	}
	return nil
}

// takeCarried hands over the carried results, once.
func (r *run) takeCarried() []providers.Part {
	c := r.carried
	r.carried = nil
	return c
}

// PresetAnswer answers the question of call callID with text (tavo runs
// resume --answer), matched against its options as a typed answer would
// be; a text that fits none of the options of a closed question cancels it.
// Every other question goes to next.
func PresetAnswer(callID, text string, next tools.Asker) tools.Asker {
	return &presetAsker{callID: callID, text: text, next: next}
}

type presetAsker struct {
	callID, text string
	next         tools.Asker
}

func (a *presetAsker) Ask(ctx context.Context, q tools.Question) (tools.Answer, error) {
	if q.CallID != a.callID {
		if a.next == nil {
			return tools.Answer{Status: tools.StatusCancelled, Via: "none"}, nil
		}
		return a.next.Ask(ctx, q)
	}
	if len(q.Questions) > 0 {
		// Several questions take a JSON array, as a driver sends them;
		// a single one may also take a typed line.
		var raws []json.RawMessage
		if json.Unmarshal([]byte(a.text), &raws) != nil {
			raws = []json.RawMessage{json.RawMessage(strconvQuote(a.text))}
		}
		if answers, ok := itemAnswers(q, raws); ok {
			return tools.Answer{Status: tools.StatusAnswered, Answers: answers, Via: "flag"}, nil
		}
		return tools.Answer{Status: tools.StatusCancelled, Via: "flag"}, nil
	}
	ans, ok := tools.MatchAnswer(q, a.text)
	if !ok {
		return tools.Answer{Status: tools.StatusCancelled, Via: "flag"}, nil
	}
	ans.Via = "flag"
	return ans, nil
}
