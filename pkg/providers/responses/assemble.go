package responses

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// assembler builds a response from output items: whole (a Response object)
// or from stream events, which name their item by output_index.
type assembler struct {
	items  map[int64]*item
	byID   map[string]*item
	status string
	reason string // incomplete_details.reason
	usage  providers.Usage
	model  string
	// sink, set while streaming, gets text that an item brings whole
	// because no delta carried it; nil for a non-streamed answer.
	sink providers.Sink
}

// item is one output item being assembled.
type item struct {
	index     int64
	typ       string // message, reasoning, function_call, or another type kept out of the answer
	id        string
	text      strings.Builder // output text, or reasoning summary text
	summary   int64           // summary_index of the last summary delta
	encrypted string
	callID    string
	name      string
	args      strings.Builder
	sawText   bool
	sawArgs   bool
}

func newAssembler() *assembler {
	return &assembler{items: map[int64]*item{}, byID: map[string]*item{}}
}

// get returns the item at index (or with itemID), starting one if needed.
func (a *assembler) get(index int64, itemID string) *item {
	if it := a.byID[itemID]; itemID != "" && it != nil {
		return it
	}
	if it := a.items[index]; it != nil {
		return it
	}
	it := &item{index: index, id: itemID, summary: -1}
	a.items[index] = it
	if itemID != "" {
		a.byID[itemID] = it
	}
	return it
}

// set fills it from a whole output item (output_item.added/done, or a
// Response's output). Text that arrived as deltas stays, so the message
// always equals what the sink was given; arguments and encrypted content
// are taken whole, as the final word.
func (a *assembler) set(it *item, o gjson.Result) {
	// An item whose text already reached the sink keeps its type, so the
	// message still holds that text.
	if typ := o.Get("type").String(); typ != "" && (it.typ == "" || !it.sawText) {
		it.typ = typ
	}
	if id := o.Get("id").String(); id != "" {
		it.id = id
		a.byID[id] = it
	}
	switch it.typ {
	case "message":
		var text strings.Builder
		for _, c := range o.Get("content").Array() {
			switch c.Get("type").String() {
			case "output_text":
				text.WriteString(c.Get("text").String())
			case "refusal":
				// A refusal is the only answer the user will see.
				text.WriteString(c.Get("refusal").String())
			}
		}
		a.wholeText(it, text.String(), false)
	case "reasoning":
		var parts []string
		for _, s := range o.Get("summary").Array() {
			parts = append(parts, s.Get("text").String())
		}
		if len(parts) == 0 {
			// Open-weight models send their raw reasoning as content.
			for _, c := range o.Get("content").Array() {
				parts = append(parts, c.Get("text").String())
			}
		}
		a.wholeText(it, strings.Join(parts, "\n\n"), true)
		if enc := o.Get("encrypted_content").String(); enc != "" {
			it.encrypted = enc
		}
	case "function_call":
		it.callID = o.Get("call_id").String()
		it.name = o.Get("name").String()
		if args := o.Get("arguments"); args.Type == gjson.String && args.Str != "" {
			it.args.Reset()
			it.args.WriteString(args.Str)
		}
	}
}

// wholeText sets an item's text from a whole item unless deltas gave it.
func (a *assembler) wholeText(it *item, text string, reasoning bool) {
	if text == "" || it.sawText {
		return
	}
	it.text.Reset()
	it.text.WriteString(text)
	if a.sink == nil {
		return
	}
	it.sawText = true
	if reasoning {
		a.sink.ReasoningDelta(text)
	} else {
		a.sink.TextDelta(text)
	}
}

// response reads a Response object's status, usage and model.
func (a *assembler) response(r gjson.Result) {
	if m := r.Get("model").String(); m != "" {
		a.model = m
	}
	if s := r.Get("status").String(); s != "" {
		a.status = s
	}
	a.reason = r.Get("incomplete_details.reason").String()
	if u := r.Get("usage"); u.IsObject() {
		a.usage = providers.Usage{
			InputTokens:     int(u.Get("input_tokens").Int()),
			OutputTokens:    int(u.Get("output_tokens").Int()),
			CachedTokens:    int(u.Get("input_tokens_details.cached_tokens").Int()),
			ReasoningTokens: int(u.Get("output_tokens_details.reasoning_tokens").Int()),
		}
	}
}

// output sets every item of a Response's output array.
func (a *assembler) output(out gjson.Result) {
	i := int64(0)
	out.ForEach(func(_, o gjson.Result) bool {
		if o.IsObject() {
			a.set(a.get(i, o.Get("id").String()), o)
		}
		i++
		return true
	})
}

// result builds the canonical message with parts in output order.
func (a *assembler) result() *providers.Response {
	items := make([]*item, 0, len(a.items))
	for _, it := range a.items {
		items = append(items, it)
	}
	sort.Slice(items, func(i, j int) bool { return items[i].index < items[j].index })
	msg := providers.Message{Role: providers.RoleAssistant, Parts: []providers.Part{}}
	calls := 0
	for _, it := range items {
		switch it.typ {
		case "reasoning":
			msg.Parts = append(msg.Parts, providers.Part{Type: providers.PartReasoning, Reasoning: &providers.Reasoning{
				Protocol: providers.ProtocolOpenAIResponses, Text: it.text.String(), ID: it.id, Encrypted: it.encrypted,
			}})
		case "message":
			if s := it.text.String(); s != "" {
				msg.Parts = append(msg.Parts, providers.Part{Type: providers.PartText, Text: s})
			}
		case "function_call":
			id := it.callID
			if id == "" {
				id = fmt.Sprintf("call_%d", it.index)
			}
			msg.Parts = append(msg.Parts, providers.Part{Type: providers.PartToolCall, ToolCall: &providers.ToolCall{ID: id, Name: it.name, Arguments: it.args.String()}})
			calls++
		}
	}
	finish := providers.FinishOther
	switch {
	case a.status == "completed" && calls > 0:
		finish = providers.FinishToolCalls
	case a.status == "completed":
		finish = providers.FinishStop
	case a.reason == "max_output_tokens":
		finish = providers.FinishLength
	case a.reason == "content_filter":
		finish = providers.FinishContentFilter
	}
	return &providers.Response{Message: msg, FinishReason: finish, Usage: a.usage, Model: a.model}
}
