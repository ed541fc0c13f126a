package openai

import (
	"io"

	"github.com/tidwall/gjson"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// decodeJSON reads a non-streamed chat.completion object.
func decodeJSON(r io.Reader, hadTools bool) (*providers.Response, error) {
	root, err := providers.ReadJSON(r)
	if err != nil {
		return nil, err
	}
	if root.Get("error").Exists() {
		env, _ := parseEnvelope([]byte(root.Raw))
		if env.message == "" {
			env.message = "the provider returned an error without a message"
		}
		return nil, classify(0, env, hadTools)
	}
	choice := root.Get("choices.0")
	if !choice.Exists() {
		return nil, &providers.Error{Code: providers.ErrProviderError, Message: "the response has no choices"}
	}
	msg := choice.Get("message")
	var a assembler
	text, partsReasoning := content(msg.Get("content"))
	a.reasoning(reasoningText(msg) + partsReasoning)
	if text == "" {
		// A refusal is the only answer the user will see; keep it as text.
		text = msg.Get("refusal").String()
	}
	a.text(text)
	for i, tc := range msg.Get("tool_calls").Array() {
		a.toolFragment(i, tc)
	}
	if fc := msg.Get("function_call"); fc.IsObject() && len(a.calls) == 0 {
		// The deprecated single function call some servers still send.
		a.toolFragment(0, gjson.Parse(`{"function":`+fc.Raw+`}`))
	}
	a.finish = choice.Get("finish_reason").String()
	a.usage(root.Get("usage"))
	a.model = root.Get("model").String()
	return a.response(), nil
}

// reasoningText reads visible reasoning from a message or delta:
// reasoning_content (DeepSeek, vLLM, llama.cpp) or reasoning (OpenRouter,
// Ollama). Servers that send both send the same text, so one is enough.
func reasoningText(v gjson.Result) string {
	if s := v.Get("reasoning_content"); s.Type == gjson.String && s.Str != "" {
		return s.Str
	}
	if s := v.Get("reasoning"); s.Type == gjson.String {
		return s.Str
	}
	return ""
}

// normaliseFinish maps finish_reason to the canonical set.
func normaliseFinish(s string) providers.FinishReason {
	switch s {
	case "stop", "end_turn":
		return providers.FinishStop
	case "tool_calls", "function_call":
		return providers.FinishToolCalls
	case "length":
		return providers.FinishLength
	case "content_filter":
		return providers.FinishContentFilter
	default:
		return providers.FinishOther
	}
}
