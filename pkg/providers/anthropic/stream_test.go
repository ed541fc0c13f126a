package anthropic

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/providertest"
)

const msgStart = `{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"claude-x","content":[],"usage":{"input_tokens":10,"output_tokens":1,"cache_read_input_tokens":90,"cache_creation_input_tokens":5}}}`

func blockStart(i, cb string) string {
	return `{"type":"content_block_start","index":` + i + `,"content_block":` + cb + `}`
}

func blockDelta(i, d string) string {
	return `{"type":"content_block_delta","index":` + i + `,"delta":` + d + `}`
}

func blockStop(i string) string { return `{"type":"content_block_stop","index":` + i + `}` }

func msgDelta(stop string) string {
	return `{"type":"message_delta","delta":{"stop_reason":"` + stop + `"},"usage":{"output_tokens":42,"input_tokens":null}}`
}

const msgStop = `{"type":"message_stop"}`

func TestDecodeStreamVariants(t *testing.T) {
	tests := []struct {
		name      string
		stream    string
		text      string
		reasoning []providers.Reasoning
		calls     []providers.ToolCall
		finish    providers.FinishReason
	}{
		{
			name: "redacted thinking, thinking, text, two tools, pings anywhere",
			stream: frames(ev(msgStart), ev(`{"type":"ping"}`),
				ev(blockStart("0", `{"type":"redacted_thinking","data":"EmwKAhgB"}`)), ev(blockStop("0")),
				ev(blockStart("1", `{"type":"thinking","thinking":"","signature":""}`)),
				ev(blockDelta("1", `{"type":"thinking_delta","thinking":"a"}`)), ev(`{"type":"ping"}`),
				ev(blockDelta("1", `{"type":"thinking_delta","thinking":"b"}`)),
				ev(blockDelta("1", `{"type":"signature_delta","signature":"S1"}`)), ev(blockStop("1")),
				ev(blockStart("2", `{"type":"text","text":""}`)), ev(blockDelta("2", `{"type":"text_delta","text":"Hi"}`)), ev(blockStop("2")),
				ev(blockStart("3", `{"type":"tool_use","id":"toolu_a","name":"f","input":{}}`)),
				ev(blockDelta("3", `{"type":"input_json_delta","partial_json":""}`)),
				ev(blockDelta("3", `{"type":"input_json_delta","partial_json":"{\"x\":"}`)),
				ev(blockDelta("3", `{"type":"input_json_delta","partial_json":"1}"}`)), ev(blockStop("3")),
				ev(blockStart("4", `{"type":"tool_use","id":"toolu_b","name":"g","input":{}}`)), ev(blockStop("4")),
				ev(msgDelta("tool_use")), ev(msgStop)),
			text: "Hi",
			reasoning: []providers.Reasoning{
				{Protocol: providers.ProtocolAnthropic, Redacted: "EmwKAhgB"},
				{Protocol: providers.ProtocolAnthropic, Text: "ab", Signature: "S1"},
			},
			calls:  []providers.ToolCall{{ID: "toolu_a", Name: "f", Arguments: `{"x":1}`}, {ID: "toolu_b", Name: "g", Arguments: `{}`}},
			finish: providers.FinishToolCalls,
		},
		{
			name:   "events without names, deltas without a start",
			stream: "data: " + msgStart + "\n\ndata: " + blockDelta("0", `{"type":"text_delta","text":"x"}`) + "\n\ndata: " + msgDelta("end_turn") + "\n\ndata: " + msgStop + "\n\n",
			text:   "x", finish: providers.FinishStop,
		},
		{
			name:   "stop reason but no message_stop",
			stream: frames(ev(msgStart), ev(blockDelta("0", `{"type":"text_delta","text":"x"}`)), ev(msgDelta("max_tokens"))),
			text:   "x", finish: providers.FinishLength,
		},
		{
			name:   "CRLF framing, comments, unknown events and deltas",
			stream: strings.ReplaceAll(": hi\n\n"+frames(ev(msgStart), ev(`{"type":"future_event"}`), ev(blockStart("0", `{"type":"text","text":""}`)), ev(blockDelta("0", `{"type":"citations_delta","citation":{}}`)), ev(blockDelta("0", `{"type":"text_delta","text":"y"}`)), ev(msgDelta("end_turn")), ev(msgStop)), "\n", "\r\n"),
			text:   "y", finish: providers.FinishStop,
		},
		{
			name:   "a delta that does not fit its block is dropped",
			stream: frames(ev(msgStart), ev(blockStart("0", `{"type":"tool_use","id":"t","name":"f","input":{}}`)), ev(blockDelta("0", `{"type":"text_delta","text":"lost"}`)), ev(msgDelta("tool_use")), ev(msgStop)),
			calls:  []providers.ToolCall{{ID: "t", Name: "f", Arguments: "{}"}}, finish: providers.FinishToolCalls,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			providertest.DecodeBothWays(t, decodeStream, tt.stream, func(resp *providers.Response, sink *providertest.Sink) {
				providertest.CheckDecoded(t, resp, sink, tt.text, tt.calls, tt.finish)
				reasoning := providertest.Reasonings(resp.Message)
				if !reflect.DeepEqual(reasoning, tt.reasoning) {
					t.Errorf("reasoning %+v, want %+v", reasoning, tt.reasoning)
				}
			})

		})
	}
}

func TestDecodeStreamUsage(t *testing.T) {
	stream := frames(ev(msgStart), ev(blockDelta("0", `{"type":"text_delta","text":"x"}`)),
		ev(`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":42,"input_tokens":null,"cache_read_input_tokens":null}}`), ev(msgStop))
	resp, err := decodeStream(strings.NewReader(stream), providertest.Discard{}, false)
	if err != nil {
		t.Fatal(err)
	}
	// Input counts every prompt token: 10 uncached + 90 cache reads + 5 cache writes.
	if want := (providers.Usage{InputTokens: 105, OutputTokens: 42, CachedTokens: 90}); resp.Usage != want || resp.Model != "claude-x" {
		t.Fatalf("usage %+v model %q, want %+v", resp.Usage, resp.Model, want)
	}
}

func TestDecodeStreamErrors(t *testing.T) {
	providertest.DecodeStreamErrors(t, decodeStream, []providertest.StreamErrorCase{
		{Name: "empty", Stream: "", Code: providers.ErrProviderError, Contains: "stream ended early", Cut: true},
		{Name: "no stop", Stream: frames(ev(msgStart), ev(blockDelta("0", `{"type":"text_delta","text":"a"}`))), Code: providers.ErrProviderError, Contains: "stream ended early", Cut: true},
		{Name: "malformed", Stream: frames(ev(msgStart), [2]string{"content_block_delta", `{"type":"content_block_delta",`}), Code: providers.ErrProviderError, Contains: "stream event 2 is not valid JSON"},
		{Name: "not an object", Stream: "data: [1]\n\n", Code: providers.ErrProviderError, Contains: "not an object"},
		{Name: "overloaded", Stream: frames(ev(msgStart), ev(`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)), Code: providers.ErrOverloaded, Contains: "Overloaded"},
		{Name: "rate limit", Stream: frames(ev(`{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`)), Code: providers.ErrRateLimited, Contains: "slow down"},
		{Name: "api error", Stream: frames(ev(`{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`)), Code: providers.ErrProviderError, Contains: "Internal server error"},
		{Name: "error without message", Stream: frames(ev(`{"type":"error","error":{}}`)), Code: providers.ErrProviderError, Contains: "without a message"},
	})
}

func TestDecodeStreamReadError(t *testing.T) {
	providertest.DecodeReadError(t, decodeStream, frames(ev(msgStart)))
}

func TestDecodeJSONVariants(t *testing.T) {
	for _, tt := range []struct {
		name, body, text string
		code             providers.ErrorCode
	}{
		{name: "refusal", body: `{"type":"message","content":[],"stop_reason":"refusal","usage":{"input_tokens":1,"output_tokens":0}}`},
		{name: "server tool blocks skipped", body: `{"type":"message","content":[{"type":"server_tool_use","id":"s","name":"web_search","input":{}},{"type":"text","text":"found"}],"stop_reason":"end_turn"}`, text: "found"},
		{name: "error with 200", body: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, code: providers.ErrOverloaded},
		{name: "no content", body: `{"id":"x"}`, code: providers.ErrProviderError},
		{name: "not json", body: `<html>`, code: providers.ErrProviderError},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp := providertest.DecodeJSON(t, decodeJSON, tt.body, tt.code)
			if resp == nil {
				return
			}
			if resp.Message.Text() != tt.text {
				t.Fatalf("text %q", resp.Message.Text())
			}
		})
	}
}

func TestClassifyNonJSONBody(t *testing.T) {
	providertest.ClassifyNonJSONBody(t, classifyHTTP, 400, 401, 404, 429, 500, 502, 503, 529)
}
