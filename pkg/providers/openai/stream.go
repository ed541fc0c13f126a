package openai

import (
	"io"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// decodeStream reads a data-only SSE stream of chat.completion.chunk objects
// ending in "data: [DONE]", handing text and reasoning to sink as they come.
func decodeStream(r io.Reader, sink providers.Sink, hadTools bool) (*providers.Response, error) {
	var a assembler
	done, err := providers.EachEvent(r, func(n int, _, data string) (bool, error) {
		if data == "[DONE]" {
			return true, nil
		}
		return false, a.chunk(data, n, sink, hadTools)
	})
	if err != nil {
		return nil, err
	}
	// Some compatible servers omit [DONE]; a finish reason still proves the
	// answer is whole.
	if !done && a.finish == "" {
		return nil, providers.StreamCut("the stream ended early, without [DONE] or a finish reason", nil)
	}
	return a.response(), nil
}

// chunk applies one chat.completion.chunk (or error envelope) to a.
func (a *assembler) chunk(data string, n int, sink providers.Sink, hadTools bool) error {
	root, err := providers.EventJSON(n, data)
	if err != nil {
		return err
	}
	// One pass over the keys: chunks arrive by the thousand, and each Get
	// would scan the chunk again.
	var choices, usage, errv gjson.Result
	root.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "choices":
			choices = v
		case "usage":
			usage = v
		case "error":
			errv = v
		case "model":
			if v.Type == gjson.String && v.Str != "" {
				a.model = v.Str
			}
		}
		return true
	})
	if errv.Exists() && errv.Type != gjson.Null {
		env, _ := parseEnvelope([]byte(data))
		if env.message == "" {
			env.message = "the provider reported an error in the stream without a message"
		}
		return classify(0, env, hadTools)
	}
	choices.ForEach(func(_, ch gjson.Result) bool {
		a.choice(ch, sink)
		return true
	})
	a.usage(usage)
	return nil
}

// choice applies one entry of a chunk's choices.
func (a *assembler) choice(ch gjson.Result, sink providers.Sink) {
	var index int64
	var d, finish gjson.Result
	ch.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "index":
			index = v.Int()
		case "delta":
			d = v
		case "finish_reason":
			finish = v
		}
		return true
	})
	// tavo never asks for n > 1; ignore other choices if a server sends them.
	if index != 0 {
		return
	}
	var text, reasoning, reasoningAlt string
	var partsReasoning string
	d.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "content":
			text, partsReasoning = content(v)
		case "reasoning_content":
			if v.Type == gjson.String {
				reasoning = v.Str
			}
		case "reasoning":
			if v.Type == gjson.String {
				reasoningAlt = v.Str
			}
		case "tool_calls":
			i := 0
			v.ForEach(func(_, tc gjson.Result) bool {
				a.toolFragment(i, tc)
				i++
				return true
			})
		}
		return true
	})
	// Servers that send both fields send the same text in each.
	if reasoning == "" {
		reasoning = reasoningAlt
	}
	reasoning += partsReasoning
	if reasoning != "" {
		a.reasoning(reasoning)
		sink.ReasoningDelta(reasoning)
	}
	if text != "" {
		a.text(text)
		sink.TextDelta(text)
	}
	if finish.Type == gjson.String && finish.Str != "" {
		a.finish = finish.Str
	}
}

// content reads delta.content: usually a string, but Mistral's reasoning
// models send an array of parts with "text" and "thinking" entries.
func content(c gjson.Result) (text, reasoning string) {
	if c.Type == gjson.String {
		return c.Str, ""
	}
	if !c.IsArray() {
		return "", ""
	}
	var t, r strings.Builder
	for _, p := range c.Array() {
		switch p.Get("type").String() {
		case "text":
			t.WriteString(p.Get("text").String())
		case "thinking":
			th := p.Get("thinking")
			if th.Type == gjson.String {
				r.WriteString(th.Str)
				continue
			}
			for _, q := range th.Array() {
				r.WriteString(q.Get("text").String())
			}
		}
	}
	return t.String(), r.String()
}
