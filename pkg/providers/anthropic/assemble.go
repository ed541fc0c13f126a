package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// assembler builds a response from content blocks, whole (a non-streamed
// message) or from stream events.
type assembler struct {
	blocks  []*block
	byIndex map[int64]*block
	stop    string
	model   string
	// Usage as the wire reports it; message_delta repeats fields cumulatively.
	input, cacheRead, cacheWrite, output int
}

// block is one content block being assembled.
type block struct {
	index     int64
	typ       string // text, thinking, redacted_thinking, tool_use, or another type kept out of the answer
	text      strings.Builder
	signature string
	data      string
	id, name  string
	args      strings.Builder
	sawArgs   bool
	input     string // tool_use input given whole (start event or JSON answer)
}

// start opens block index with the content_block it announced. A second
// start for an open index is ignored: its deltas keep going to the first.
func (a *assembler) start(index int64, cb gjson.Result) (*block, bool) {
	if b := a.byIndex[index]; b != nil {
		return b, false
	}
	b := &block{index: index, typ: cb.Get("type").String()}
	switch b.typ {
	case "text":
		b.text.WriteString(cb.Get("text").String())
	case "thinking":
		b.text.WriteString(cb.Get("thinking").String())
		b.signature = cb.Get("signature").String()
	case "redacted_thinking":
		b.data = cb.Get("data").String()
	case "tool_use":
		b.id, b.name = cb.Get("id").String(), cb.Get("name").String()
		if in := cb.Get("input"); in.IsObject() {
			b.input = compact(in.Raw)
		}
	}
	if a.byIndex == nil {
		a.byIndex = map[int64]*block{}
	}
	a.blocks = append(a.blocks, b)
	a.byIndex[index] = b
	return b, true
}

// at returns block index, opening one of typ when the stream skipped its
// start event.
func (a *assembler) at(index int64, typ string) *block {
	if b := a.byIndex[index]; b != nil {
		return b
	}
	b, _ := a.start(index, gjson.Parse(`{"type":"`+typ+`"}`))
	return b
}

// usage reads a usage object; fields that are null or absent keep their
// earlier value (message_delta sends null for what message_start said).
func (a *assembler) usage(u gjson.Result) {
	if !u.IsObject() {
		return
	}
	set := func(dst *int, v gjson.Result) {
		if v.Type == gjson.Number {
			*dst = int(v.Int())
		}
	}
	set(&a.input, u.Get("input_tokens"))
	set(&a.cacheRead, u.Get("cache_read_input_tokens"))
	set(&a.cacheWrite, u.Get("cache_creation_input_tokens"))
	set(&a.output, u.Get("output_tokens"))
}

// response builds the canonical message with parts in block order.
func (a *assembler) response() *providers.Response {
	blocks := append([]*block(nil), a.blocks...)
	sort.SliceStable(blocks, func(i, j int) bool { return blocks[i].index < blocks[j].index })
	msg := providers.Message{Role: providers.RoleAssistant, Parts: []providers.Part{}}
	calls := 0
	for _, b := range blocks {
		switch b.typ {
		case "thinking":
			msg.Parts = append(msg.Parts, providers.Part{Type: providers.PartReasoning, Reasoning: &providers.Reasoning{
				Protocol: providers.ProtocolAnthropic, Text: b.text.String(), Signature: b.signature,
			}})
		case "redacted_thinking":
			msg.Parts = append(msg.Parts, providers.Part{Type: providers.PartReasoning, Reasoning: &providers.Reasoning{
				Protocol: providers.ProtocolAnthropic, Redacted: b.data,
			}})
		case "text":
			if s := b.text.String(); s != "" {
				msg.Parts = append(msg.Parts, providers.Part{Type: providers.PartText, Text: s})
			}
		case "tool_use":
			args := b.args.String()
			if !b.sawArgs || strings.TrimSpace(args) == "" {
				// No input_json_delta: the input came whole, or the call
				// takes no arguments.
				args = b.input
				if args == "" {
					args = "{}"
				}
			}
			id := b.id
			if id == "" {
				id = fmt.Sprintf("toolu_%d", b.index)
			}
			msg.Parts = append(msg.Parts, providers.Part{Type: providers.PartToolCall, ToolCall: &providers.ToolCall{ID: id, Name: b.name, Arguments: args}})
			calls++
		}
	}
	finish := normaliseStop(a.stop)
	if calls > 0 && finish == providers.FinishStop {
		finish = providers.FinishToolCalls
	}
	return &providers.Response{
		Message:      msg,
		FinishReason: finish,
		Usage: providers.Usage{
			InputTokens:  a.input + a.cacheRead + a.cacheWrite,
			OutputTokens: a.output,
			CachedTokens: a.cacheRead,
		},
		Model: a.model,
	}
}

// compact removes the layout of a pretty-printed JSON value, as a tool
// input given whole may have.
func compact(raw string) string {
	var b bytes.Buffer
	if json.Compact(&b, []byte(raw)) != nil {
		return raw
	}
	return b.String()
}

// normaliseStop maps stop_reason to the canonical set.
func normaliseStop(s string) providers.FinishReason {
	switch s {
	case "end_turn", "stop_sequence":
		return providers.FinishStop
	case "tool_use":
		return providers.FinishToolCalls
	case "max_tokens", "model_context_window_exceeded":
		return providers.FinishLength
	case "refusal":
		return providers.FinishContentFilter
	default:
		// pause_turn (a server tool paused the turn) and anything newer.
		return providers.FinishOther
	}
}
