package anthropic

import (
	"io"

	"github.com/tidwall/gjson"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// decodeStream reads a Messages event stream (message_start,
// content_block_start/delta/stop, message_delta, message_stop, ping, error),
// handing text and thinking to sink as they come.
func decodeStream(r io.Reader, sink providers.Sink, hadTools bool) (*providers.Response, error) {
	var a assembler
	done, err := providers.EachEvent(r, func(n int, name, data string) (bool, error) {
		return a.event(name, data, n, sink, hadTools)
	})
	if err != nil {
		return nil, err
	}
	// message_stop ends a whole answer; a stop reason alone (a proxy that
	// drops the last event) still proves nothing was lost.
	if !done && a.stop == "" {
		return nil, providers.StreamCut("the stream ended early, without message_stop or a stop reason", nil)
	}
	return a.response(), nil
}

// event applies one stream event; done reports message_stop.
func (a *assembler) event(name, data string, n int, sink providers.Sink, hadTools bool) (done bool, err error) {
	root, err := providers.EventJSON(n, data)
	if err != nil {
		return false, err
	}
	typ := root.Get("type").String()
	if typ == "" {
		typ = name
	}
	switch typ {
	case "message_start":
		msg := root.Get("message")
		if m := msg.Get("model").String(); m != "" {
			a.model = m
		}
		a.usage(msg.Get("usage"))
	case "content_block_start":
		b, fresh := a.start(root.Get("index").Int(), root.Get("content_block"))
		// The API starts blocks empty; text given here anyway still
		// counts as delivered output.
		switch s := b.text.String(); {
		case !fresh || s == "":
		case b.typ == "text":
			sink.TextDelta(s)
		case b.typ == "thinking":
			sink.ReasoningDelta(s)
		}
	case "content_block_delta":
		a.delta(root.Get("index").Int(), root.Get("delta"), sink)
	case "message_delta":
		if s := root.Get("delta.stop_reason"); s.Type == gjson.String {
			a.stop = s.Str
		}
		a.usage(root.Get("usage"))
	case "message_stop":
		return true, nil
	case "error":
		return false, classify(0, parseEnvelope([]byte(data)), hadTools)
	}
	// ping, content_block_stop and event types added later need nothing.
	return false, nil
}

// delta applies one content_block_delta. A delta that does not fit its
// block's type is dropped, so the deltas given to sink always add up to the
// message's text and reasoning.
func (a *assembler) delta(index int64, d gjson.Result, sink providers.Sink) {
	switch d.Get("type").String() {
	case "text_delta":
		if b := a.at(index, "text"); b.typ == "text" {
			s := d.Get("text").String()
			b.text.WriteString(s)
			sink.TextDelta(s)
		}
	case "thinking_delta":
		if b := a.at(index, "thinking"); b.typ == "thinking" {
			s := d.Get("thinking").String()
			b.text.WriteString(s)
			sink.ReasoningDelta(s)
		}
	case "signature_delta":
		if b := a.at(index, "thinking"); b.typ == "thinking" {
			b.signature += d.Get("signature").String()
		}
	case "input_json_delta":
		if b := a.at(index, "tool_use"); b.typ == "tool_use" {
			b.args.WriteString(d.Get("partial_json").String())
			b.sawArgs = true
		}
	}
	// citations_delta and newer delta types carry nothing tavo keeps.
}
