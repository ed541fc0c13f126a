package openai

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/providertest"
)

// frames wraps each payload in an SSE data event.
func frames(payloads ...string) string {
	var b strings.Builder
	for _, p := range payloads {
		b.WriteString("data: " + p + "\n\n")
	}
	return b.String()
}

func delta(d string) string {
	return `{"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":` + d + `,"finish_reason":null}]}`
}

func finish(reason string) string {
	return `{"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"` + reason + `"}]}`
}

func TestDecodeStreamCompatibleServers(t *testing.T) {
	tests := []struct {
		name      string
		stream    string
		text      string
		reasoning string
		calls     []providers.ToolCall
		finish    providers.FinishReason
	}{
		{
			name: "interleaved indexes, id and name on first fragment only",
			stream: frames(
				delta(`{"role":"assistant","tool_calls":[{"index":1,"id":"b","type":"function","function":{"name":"second","arguments":""}}]}`),
				delta(`{"tool_calls":[{"index":0,"id":"a","type":"function","function":{"name":"first","arguments":"{\"x\""}}]}`),
				delta(`{"tool_calls":[{"index":1,"function":{"arguments":"{\"y\":"}}]}`),
				delta(`{"tool_calls":[{"index":0,"function":{"arguments":":1}"}},{"index":1,"function":{"arguments":"2}"}}]}`),
				finish("tool_calls"), "[DONE]"),
			calls:  []providers.ToolCall{{ID: "a", Name: "first", Arguments: `{"x":1}`}, {ID: "b", Name: "second", Arguments: `{"y":2}`}},
			finish: providers.FinishToolCalls,
		},
		{
			name: "no index (positions), no id, finish stop",
			stream: frames(
				delta(`{"tool_calls":[{"function":{"name":"f","arguments":"{}"}},{"function":{"name":"g","arguments":"[]"}}]}`),
				finish("stop"), "[DONE]"),
			calls:  []providers.ToolCall{{ID: "call_0", Name: "f", Arguments: "{}"}, {ID: "call_1", Name: "g", Arguments: "[]"}},
			finish: providers.FinishToolCalls,
		},
		{
			name: "every call numbered 0 with its own id, name repeated",
			stream: frames(
				delta(`{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{\"a\""}}]}`),
				delta(`{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":":1}"}}]}`),
				delta(`{"tool_calls":[{"index":0,"id":"b","function":{"name":"g","arguments":"{}"}}]}`),
				finish("tool_calls"), "[DONE]"),
			calls:  []providers.ToolCall{{ID: "a", Name: "f", Arguments: `{"a":1}`}, {ID: "b", Name: "g", Arguments: "{}"}},
			finish: providers.FinishToolCalls,
		},
		{
			name: "reasoning_content then content (DeepSeek)",
			stream: frames(
				delta(`{"role":"assistant","content":null,"reasoning_content":"Think"}`),
				delta(`{"content":null,"reasoning_content":"ing."}`),
				delta(`{"content":"Answer","reasoning_content":null}`),
				finish("stop"), "[DONE]"),
			text: "Answer", reasoning: "Thinking.", finish: providers.FinishStop,
		},
		{
			name:   "reasoning field (OpenRouter, Ollama)",
			stream: frames(delta(`{"reasoning":"hmm"}`), delta(`{"content":"ok"}`), finish("stop"), "[DONE]"),
			text:   "ok", reasoning: "hmm", finish: providers.FinishStop,
		},
		{
			name: "content parts with thinking (Mistral)",
			stream: frames(
				delta(`{"content":[{"type":"thinking","thinking":[{"type":"text","text":"plan"}]}]}`),
				delta(`{"content":[{"type":"text","text":"done"}]}`),
				finish("stop"), "[DONE]"),
			text: "done", reasoning: "plan", finish: providers.FinishStop,
		},
		{
			name:   "finish but no [DONE] (some servers)",
			stream: frames(delta(`{"content":"hi"}`), finish("length")),
			text:   "hi", finish: providers.FinishLength,
		},
		{
			name:   "CRLF framing, comments, keep-alives, empty events",
			stream: strings.ReplaceAll(": ping\n\n"+frames(delta(`{"content":"a"}`))+"data:\n\n"+frames(finish("stop"), "[DONE]"), "\n", "\r\n"),
			text:   "a", finish: providers.FinishStop,
		},
		{
			name:   "other choices ignored",
			stream: frames(`{"choices":[{"index":1,"delta":{"content":"B"}},{"index":0,"delta":{"content":"A"}}]}`, finish("stop"), "[DONE]"),
			text:   "A", finish: providers.FinishStop,
		},
		{
			name:   "data after [DONE] ignored",
			stream: frames(delta(`{"content":"a"}`), finish("stop"), "[DONE]", "{broken"),
			text:   "a", finish: providers.FinishStop,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			providertest.DecodeBothWays(t, decodeStream, tt.stream, func(resp *providers.Response, sink *providertest.Sink) {
				providertest.CheckDecoded(t, resp, sink, tt.text, tt.calls, tt.finish)
				if strings.Join(sink.Reasoning, "") != tt.reasoning {
					t.Errorf("reasoning deltas %q, want %q", sink.Reasoning, tt.reasoning)
				}
			})

		})
	}
}

func TestDecodeStreamPartsOrder(t *testing.T) {
	stream := frames(
		delta(`{"content":"text first"}`),
		delta(`{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{}"}}]}`),
		delta(`{"reasoning_content":"late reasoning"}`),
		finish("tool_calls"), "[DONE]")
	resp, err := decodeStream(strings.NewReader(stream), &providertest.Sink{}, false)
	if err != nil {
		t.Fatal(err)
	}
	var types []providers.PartType
	for _, p := range resp.Message.Parts {
		types = append(types, p.Type)
	}
	want := []providers.PartType{providers.PartReasoning, providers.PartText, providers.PartToolCall}
	if !reflect.DeepEqual(types, want) {
		t.Fatalf("parts %v, want %v", types, want)
	}
}

func TestDecodeStreamUsage(t *testing.T) {
	stream := frames(
		delta(`{"content":"a"}`),
		// Some servers put usage on the finishing chunk instead of a separate one.
		`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":7,"completion_tokens":3,"prompt_tokens_details":{"cached_tokens":2},"completion_tokens_details":{"reasoning_tokens":1}}}`,
		"[DONE]")
	resp, err := decodeStream(strings.NewReader(stream), &providertest.Sink{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if want := (providers.Usage{InputTokens: 7, OutputTokens: 3, CachedTokens: 2, ReasoningTokens: 1}); resp.Usage != want {
		t.Fatalf("usage %+v, want %+v", resp.Usage, want)
	}
}

func TestDecodeStreamErrors(t *testing.T) {
	providertest.DecodeStreamErrors(t, decodeStream, []providertest.StreamErrorCase{
		{Name: "empty", Stream: "", Code: providers.ErrProviderError, Contains: "stream ended early", Cut: true},
		{Name: "no finish no done", Stream: frames(delta(`{"content":"a"}`)), Code: providers.ErrProviderError, Contains: "stream ended early", Cut: true},
		{Name: "malformed", Stream: frames(delta(`{"content":"a"}`), `{"choices":[`), Code: providers.ErrProviderError, Contains: "stream event 2 is not valid JSON"},
		{Name: "not an object", Stream: frames(`[1,2]`), Code: providers.ErrProviderError, Contains: "not an object"},
		{Name: "error envelope", Stream: frames(`{"error":{"message":"Overloaded, try later","type":"server_error","code":"server_overloaded"}}`), Code: providers.ErrOverloaded, Contains: "Overloaded, try later"},
		{Name: "rate limit envelope", Stream: frames(`{"error":{"message":"Rate limit","code":"rate_limit_exceeded"}}`), Code: providers.ErrRateLimited, Contains: "Rate limit"},
		{Name: "context envelope", Stream: frames(`{"error":{"message":"too long","code":"context_length_exceeded"}}`), Code: providers.ErrContextOverflow, Contains: "too long"},
		{Name: "string error", Stream: frames(`{"error":"upstream failed"}`), Code: providers.ErrProviderError, Contains: "upstream failed"},
		{Name: "empty error", Stream: frames(`{"error":{}}`), Code: providers.ErrProviderError, Contains: "without a message"},
	})
}

func TestDecodeStreamReadError(t *testing.T) {
	providertest.DecodeReadError(t, decodeStream, frames(delta(`{"content":"a"}`)))
}

func TestDecodeJSONVariants(t *testing.T) {
	for _, tt := range []struct {
		name, body, text, reasoning string
		calls                       []providers.ToolCall
		code                        providers.ErrorCode
	}{
		{name: "refusal", body: `{"choices":[{"message":{"role":"assistant","content":null,"refusal":"I can't help with that."},"finish_reason":"stop"}]}`, text: "I can't help with that."},
		{name: "reasoning", body: `{"choices":[{"message":{"content":"x","reasoning_content":"why"},"finish_reason":"stop"}]}`, text: "x", reasoning: "why"},
		{name: "legacy function_call", body: `{"choices":[{"message":{"content":null,"function_call":{"name":"f","arguments":"{}"}},"finish_reason":"function_call"}]}`,
			calls: []providers.ToolCall{{ID: "call_0", Name: "f", Arguments: "{}"}}},
		{name: "error with 200", body: `{"error":{"message":"model overloaded","code":"overloaded"}}`, code: providers.ErrOverloaded},
		{name: "no choices", body: `{"id":"x"}`, code: providers.ErrProviderError},
		{name: "not json", body: `<html>`, code: providers.ErrProviderError},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp := providertest.DecodeJSON(t, decodeJSON, tt.body, tt.code)
			if resp == nil {
				return
			}
			reasoning := ""
			if p := resp.Message.Parts[0]; p.Type == providers.PartReasoning {
				reasoning = p.Reasoning.Text
			}
			if resp.Message.Text() != tt.text || reasoning != tt.reasoning || !reflect.DeepEqual(resp.Message.ToolCalls(), tt.calls) {
				t.Fatalf("resp %+v", resp.Message)
			}
		})
	}
}

func TestClassifyNonJSONBody(t *testing.T) {
	for _, status := range []int{400, 401, 404, 429, 500, 502, 503, 529} {
		e := classifyHTTP(&providers.HTTPFailure{Status: status, Body: []byte("<!DOCTYPE html><title>Error</title>")}, true)
		if strings.Contains(e.Message, "<") || !strings.Contains(e.Message, fmt.Sprint(status)) {
			t.Errorf("%d: message %q", status, e.Message)
		}
		if e.Code != providers.CodeForStatus(status) {
			t.Errorf("%d: code %s", status, e.Code)
		}
	}
}
