package openai

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// assembler accumulates a response from deltas (or from one whole message).
type assembler struct {
	reasoningBuf strings.Builder
	textBuf      strings.Builder
	calls        []*callAcc
	byIndex      map[int]*callAcc
	finish       string
	use          providers.Usage
	model        string
	sawUsage     bool
}

// callAcc is one tool call being assembled from fragments.
type callAcc struct {
	index int
	order int
	id    string
	name  string
	args  strings.Builder
}

func (a *assembler) reasoning(s string) { a.reasoningBuf.WriteString(s) }
func (a *assembler) text(s string)      { a.textBuf.WriteString(s) }

// toolFragment adds one tool_calls entry. pos is the entry's position, used
// when a server leaves out "index". The id and name come on the first
// fragment of a call; later fragments of the same index add arguments.
func (a *assembler) toolFragment(pos int, tc gjson.Result) {
	idx := pos
	if v := tc.Get("index"); v.Exists() {
		idx = int(v.Int())
	}
	id := tc.Get("id").String()
	if a.byIndex == nil {
		a.byIndex = map[int]*callAcc{}
	}
	acc := a.byIndex[idx]
	// A new id on a known index is a new call: some servers number every
	// call 0.
	if acc == nil || (id != "" && acc.id != "" && id != acc.id) {
		acc = &callAcc{index: idx, order: len(a.calls)}
		a.calls = append(a.calls, acc)
		a.byIndex[idx] = acc
	}
	if acc.id == "" {
		acc.id = id
	}
	fn := tc.Get("function")
	if name := fn.Get("name").String(); name != "" && name != acc.name {
		// Repeats of the whole name are ignored; pieces are joined.
		acc.name += name
	}
	acc.args.WriteString(fn.Get("arguments").String())
}

// usage reads a usage object; null or absent changes nothing.
func (a *assembler) usage(u gjson.Result) {
	if !u.IsObject() {
		return
	}
	a.sawUsage = true
	a.use = providers.Usage{
		InputTokens:     int(u.Get("prompt_tokens").Int()),
		OutputTokens:    int(u.Get("completion_tokens").Int()),
		CachedTokens:    int(u.Get("prompt_tokens_details.cached_tokens").Int()),
		ReasoningTokens: int(u.Get("completion_tokens_details.reasoning_tokens").Int()),
	}
}

// response builds the canonical message: reasoning, text, tool calls by index.
func (a *assembler) response() *providers.Response {
	msg := providers.Message{Role: providers.RoleAssistant, Parts: []providers.Part{}}
	if s := a.reasoningBuf.String(); s != "" {
		msg.Parts = append(msg.Parts, providers.Part{Type: providers.PartReasoning, Reasoning: &providers.Reasoning{Protocol: providers.ProtocolOpenAI, Text: s}})
	}
	if s := a.textBuf.String(); s != "" {
		msg.Parts = append(msg.Parts, providers.Part{Type: providers.PartText, Text: s})
	}
	calls := append([]*callAcc(nil), a.calls...)
	sort.SliceStable(calls, func(i, j int) bool {
		if calls[i].index != calls[j].index {
			return calls[i].index < calls[j].index
		}
		return calls[i].order < calls[j].order
	})
	for i, c := range calls {
		id := c.id
		if id == "" {
			// Some servers (older Ollama) send no id; results must still be
			// matched to their call.
			id = fmt.Sprintf("call_%d", i)
		}
		msg.Parts = append(msg.Parts, providers.Part{Type: providers.PartToolCall, ToolCall: &providers.ToolCall{ID: id, Name: c.name, Arguments: c.args.String()}})
	}
	finish := normaliseFinish(a.finish)
	// Some compatible servers end a tool-call turn with "stop".
	if len(calls) > 0 && finish == providers.FinishStop {
		finish = providers.FinishToolCalls
	}
	return &providers.Response{Message: msg, FinishReason: finish, Usage: a.use, Model: a.model}
}
