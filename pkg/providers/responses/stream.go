package responses

import (
	"io"

	"github.com/tidwall/gjson"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/openai"
)

// decodeStream reads a Responses event stream, handing output text and
// reasoning summaries to sink as they come. It ends at response.completed
// or response.incomplete; response.failed and error events are errors.
func decodeStream(r io.Reader, sink providers.Sink, hadTools bool) (*providers.Response, error) {
	a := newAssembler()
	a.sink = sink
	done, err := providers.EachEvent(r, func(n int, name, data string) (bool, error) {
		if data == "[DONE]" {
			return false, nil
		}
		root, err := providers.EventJSON(n, data)
		if err != nil {
			return false, err
		}
		typ := root.Get("type").String()
		if typ == "" {
			typ = name
		}
		return a.event(typ, root, sink, hadTools)
	})
	if err != nil {
		return nil, err
	}
	if !done {
		return nil, providers.StreamCut("the stream ended before response.completed", nil)
	}
	return a.result(), nil
}

// event applies one stream event; done reports the end of the response.
func (a *assembler) event(typ string, ev gjson.Result, sink providers.Sink, hadTools bool) (done bool, err error) {
	index, itemID := ev.Get("output_index").Int(), ev.Get("item_id").String()
	switch typ {
	case "response.created", "response.in_progress", "response.queued":
		a.response(ev.Get("response"))
	case "response.output_item.added", "response.output_item.done":
		o := ev.Get("item")
		if o.IsObject() {
			a.set(a.get(index, o.Get("id").String()), o)
		}
	case "response.output_text.delta", "response.refusal.delta":
		if it := a.typed(index, itemID, "message"); it != nil {
			s := ev.Get("delta").String()
			it.text.WriteString(s)
			it.sawText = true
			sink.TextDelta(s)
		}
	case "response.reasoning_summary_text.delta", "response.reasoning_text.delta":
		if it := a.typed(index, itemID, "reasoning"); it != nil {
			s := ev.Get("delta").String()
			if part := ev.Get("summary_index"); part.Exists() {
				// A new summary part starts after a blank line.
				if part.Int() != it.summary && it.text.Len() > 0 {
					s = "\n\n" + s
				}
				it.summary = part.Int()
			}
			it.text.WriteString(s)
			it.sawText = true
			sink.ReasoningDelta(s)
		}
	case "response.function_call_arguments.delta":
		if it := a.typed(index, itemID, "function_call"); it != nil {
			it.args.WriteString(ev.Get("delta").String())
			it.sawArgs = true
		}
	case "response.function_call_arguments.done":
		if it := a.typed(index, itemID, "function_call"); it != nil {
			if args := ev.Get("arguments"); args.Type == gjson.String {
				it.args.Reset()
				it.args.WriteString(args.Str)
			}
		}
	case "response.completed", "response.incomplete":
		resp := ev.Get("response")
		a.response(resp)
		a.output(resp.Get("output"))
		return true, nil
	case "response.failed":
		if err := failure(ev.Get("response"), hadTools); err != nil {
			return false, err
		}
		return false, openai.ClassifyEnvelope("the response failed without a message", "", "", hadTools)
	case "error":
		e := ev
		if inner := ev.Get("error"); inner.IsObject() {
			e = inner
		}
		return false, openai.ClassifyEnvelope(e.Get("message").String(), e.Get("type").String(), e.Get("code").String(), hadTools)
	}
	// Other events (content_part, *.done with text already seen, web
	// search progress, …) add nothing tavo keeps.
	return false, nil
}

// typed returns the item an event names, giving it typ when the stream did
// not announce it; nil when the item is of another type, so a stray delta
// cannot change an item it does not belong to.
func (a *assembler) typed(index int64, itemID, typ string) *item {
	it := a.get(index, itemID)
	if it.typ == "" {
		it.typ = typ
	}
	if it.typ != typ {
		return nil
	}
	return it
}
