package responses

import (
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/providertest"
)

func completed(output string) string {
	return `{"type":"response.completed","response":{"id":"r","status":"completed","model":"gpt-x","output":[` + output + `],"usage":{"input_tokens":10,"input_tokens_details":{"cached_tokens":4},"output_tokens":7,"output_tokens_details":{"reasoning_tokens":3}}}}`
}

func added(index, item string) string {
	return `{"type":"response.output_item.added","output_index":` + index + `,"item":` + item + `}`
}

func TestDecodeStreamVariants(t *testing.T) {
	tests := []struct {
		name      string
		stream    string
		text      string
		reasoning string
		calls     []providers.ToolCall
		finish    providers.FinishReason
	}{
		{
			name: "interleaved arguments of two calls, keyed by item",
			stream: frames(
				added("0", `{"type":"function_call","id":"fc_a","call_id":"call_a","name":"f","arguments":""}`),
				added("1", `{"type":"function_call","id":"fc_b","call_id":"call_b","name":"g","arguments":""}`),
				`{"type":"response.function_call_arguments.delta","item_id":"fc_b","output_index":1,"delta":"{\"y\":"}`,
				`{"type":"response.function_call_arguments.delta","item_id":"fc_a","output_index":0,"delta":"{\"x\":1}"}`,
				`{"type":"response.function_call_arguments.delta","item_id":"fc_b","output_index":1,"delta":"2}"}`,
				completed("")),
			calls:  []providers.ToolCall{{ID: "call_a", Name: "f", Arguments: `{"x":1}`}, {ID: "call_b", Name: "g", Arguments: `{"y":2}`}},
			finish: providers.FinishToolCalls,
		},
		{
			name: "two summary parts joined by a blank line; arguments done wins",
			stream: frames(
				added("0", `{"type":"reasoning","id":"rs_1","summary":[]}`),
				`{"type":"response.reasoning_summary_text.delta","item_id":"rs_1","output_index":0,"summary_index":0,"delta":"one"}`,
				`{"type":"response.reasoning_summary_text.delta","item_id":"rs_1","output_index":0,"summary_index":1,"delta":"two"}`,
				added("1", `{"type":"function_call","id":"fc","call_id":"c","name":"f","arguments":""}`),
				`{"type":"response.function_call_arguments.delta","item_id":"fc","output_index":1,"delta":"{broken"}`,
				`{"type":"response.function_call_arguments.done","item_id":"fc","output_index":1,"arguments":"{}"}`,
				completed("")),
			reasoning: "one\n\ntwo",
			calls:     []providers.ToolCall{{ID: "c", Name: "f", Arguments: "{}"}},
			finish:    providers.FinishToolCalls,
		},
		{
			name: "text only in the completed response (no deltas)",
			stream: frames(`{"type":"response.created","response":{"status":"in_progress","model":"gpt-x"}}`,
				completed(`{"type":"message","id":"m","role":"assistant","content":[{"type":"output_text","text":"whole"}]}`)),
			text: "whole", finish: providers.FinishStop,
		},
		{
			name: "refusal, raw reasoning text, unknown events, [DONE]",
			stream: frames(
				`{"type":"response.reasoning_text.delta","item_id":"rs","output_index":0,"content_index":0,"delta":"raw"}`,
				`{"type":"response.refusal.delta","item_id":"m","output_index":1,"content_index":0,"delta":"I can't."}`,
				`{"type":"response.web_search_call.searching","output_index":2}`,
				`{"type":"response.incomplete","response":{"status":"incomplete","incomplete_details":{"reason":"content_filter"},"output":[]}}`) + "data: [DONE]\n\n",
			text: "I can't.", reasoning: "raw", finish: providers.FinishContentFilter,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			providertest.DecodeBothWays(t, decodeStream, tt.stream, func(resp *providers.Response, sink *providertest.Sink) {
				providertest.CheckDecoded(t, resp, sink, tt.text, tt.calls, tt.finish)
				var reasoning string
				for _, p := range resp.Message.Parts {
					if p.Type == providers.PartReasoning {
						reasoning += p.Reasoning.Text
					}
				}
				if reasoning != tt.reasoning || strings.Join(sink.Reasoning, "") != tt.reasoning {
					t.Errorf("reasoning %q deltas %q, want %q", reasoning, sink.Reasoning, tt.reasoning)
				}
			})

		})
	}
}

func TestDecodeStreamUsage(t *testing.T) {
	resp, err := decodeStream(strings.NewReader(frames(completed(""))), providertest.Discard{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if want := (providers.Usage{InputTokens: 10, OutputTokens: 7, CachedTokens: 4, ReasoningTokens: 3}); resp.Usage != want || resp.Model != "gpt-x" {
		t.Fatalf("usage %+v model %q", resp.Usage, resp.Model)
	}
}

func TestDecodeStreamErrors(t *testing.T) {
	providertest.DecodeStreamErrors(t, decodeStream, []providertest.StreamErrorCase{
		{Name: "empty", Stream: "", Code: providers.ErrProviderError, Contains: "before response.completed", Cut: true},
		{Name: "no completed", Stream: frames(`{"type":"response.output_text.delta","output_index":0,"delta":"a"}`), Code: providers.ErrProviderError, Contains: "before response.completed", Cut: true},
		{Name: "malformed", Stream: frames(`{"type":"response.created","response":{}}`) + "event: response.output_text.delta\ndata: {\"type\":\n\n", Code: providers.ErrProviderError, Contains: "stream event 2 is not valid JSON"},
		{Name: "not an object", Stream: "data: 1\n\n", Code: providers.ErrProviderError, Contains: "not an object"},
		{Name: "error event", Stream: frames(`{"type":"error","code":"rate_limit_exceeded","message":"Rate limit reached","param":null}`), Code: providers.ErrRateLimited, Contains: "Rate limit reached"},
		{Name: "nested error event", Stream: frames(`{"type":"error","error":{"type":"server_error","code":"server_overloaded","message":"busy"}}`), Code: providers.ErrOverloaded, Contains: "busy"},
		{Name: "failed", Stream: frames(`{"type":"response.failed","response":{"status":"failed","error":{"code":"context_length_exceeded","message":"too long"}}}`), Code: providers.ErrContextOverflow, Contains: "too long"},
		{Name: "failed without error", Stream: frames(`{"type":"response.failed","response":{"status":"failed","error":null}}`), Code: providers.ErrProviderError, Contains: "failed without a message"},
	})
}

func TestDecodeJSONVariants(t *testing.T) {
	for _, tt := range []struct {
		name, body, text string
		finish           providers.FinishReason
		code             providers.ErrorCode
	}{
		{name: "incomplete", body: `{"status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"output":[{"type":"message","content":[{"type":"output_text","text":"cut"}]}]}`, text: "cut", finish: providers.FinishLength},
		{name: "failed", body: `{"status":"failed","error":{"code":"server_error","message":"boom"},"output":[]}`, code: providers.ErrProviderError},
		{name: "error envelope", body: `{"error":{"message":"bad","type":"invalid_request_error"}}`, code: providers.ErrProviderError},
		{name: "no output", body: `{"id":"x"}`, code: providers.ErrProviderError},
		{name: "not json", body: `<html>`, code: providers.ErrProviderError},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp := providertest.DecodeJSON(t, decodeJSON, tt.body, tt.code)
			if resp == nil {
				return
			}
			if resp.Message.Text() != tt.text || resp.FinishReason != tt.finish {
				t.Fatalf("text %q finish %s", resp.Message.Text(), resp.FinishReason)
			}
		})
	}
}
