package anthropic

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/tavo-cli/tavo/pkg/providers"
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
			for _, r := range []io.Reader{strings.NewReader(tt.stream), iotest.OneByteReader(strings.NewReader(tt.stream))} {
				sink := &recSink{}
				resp, err := decodeStream(r, sink, true)
				if err != nil {
					t.Fatal(err)
				}
				if resp.Message.Text() != tt.text || strings.Join(sink.text, "") != tt.text {
					t.Errorf("text %q deltas %q, want %q", resp.Message.Text(), sink.text, tt.text)
				}
				var reasoning []providers.Reasoning
				for _, p := range resp.Message.Parts {
					if p.Type == providers.PartReasoning {
						reasoning = append(reasoning, *p.Reasoning)
					}
				}
				if !reflect.DeepEqual(reasoning, tt.reasoning) {
					t.Errorf("reasoning %+v, want %+v", reasoning, tt.reasoning)
				}
				if !reflect.DeepEqual(resp.Message.ToolCalls(), tt.calls) {
					t.Errorf("calls %+v, want %+v", resp.Message.ToolCalls(), tt.calls)
				}
				if resp.FinishReason != tt.finish {
					t.Errorf("finish %s, want %s", resp.FinishReason, tt.finish)
				}
			}
		})
	}
}

func TestDecodeStreamUsage(t *testing.T) {
	stream := frames(ev(msgStart), ev(blockDelta("0", `{"type":"text_delta","text":"x"}`)),
		ev(`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":42,"input_tokens":null,"cache_read_input_tokens":null}}`), ev(msgStop))
	resp, err := decodeStream(strings.NewReader(stream), discard{}, false)
	if err != nil {
		t.Fatal(err)
	}
	// Input counts every prompt token: 10 uncached + 90 cache reads + 5 cache writes.
	if want := (providers.Usage{InputTokens: 105, OutputTokens: 42, CachedTokens: 90}); resp.Usage != want || resp.Model != "claude-x" {
		t.Fatalf("usage %+v model %q, want %+v", resp.Usage, resp.Model, want)
	}
}

func TestDecodeStreamErrors(t *testing.T) {
	for _, tt := range []struct {
		name     string
		stream   string
		code     providers.ErrorCode
		contains string
		cut      bool
	}{
		{"empty", "", providers.ErrProviderError, "stream ended early", true},
		{"no stop", frames(ev(msgStart), ev(blockDelta("0", `{"type":"text_delta","text":"a"}`))), providers.ErrProviderError, "stream ended early", true},
		{"malformed", frames(ev(msgStart), [2]string{"content_block_delta", `{"type":"content_block_delta",`}), providers.ErrProviderError, "stream event 2 is not valid JSON", false},
		{"not an object", "data: [1]\n\n", providers.ErrProviderError, "not an object", false},
		{"overloaded", frames(ev(msgStart), ev(`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)), providers.ErrOverloaded, "Overloaded", false},
		{"rate limit", frames(ev(`{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`)), providers.ErrRateLimited, "slow down", false},
		{"api error", frames(ev(`{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`)), providers.ErrProviderError, "Internal server error", false},
		{"error without message", frames(ev(`{"type":"error","error":{}}`)), providers.ErrProviderError, "without a message", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decodeStream(strings.NewReader(tt.stream), &recSink{}, false)
			var pe *providers.Error
			if !errors.As(err, &pe) || pe.Code != tt.code || !strings.Contains(pe.Message, tt.contains) {
				t.Fatalf("err = %#v, want %s containing %q", err, tt.code, tt.contains)
			}
			if errors.Is(err, providers.ErrStreamCut) != tt.cut {
				t.Fatalf("ErrStreamCut %v, want %v", !tt.cut, tt.cut)
			}
		})
	}
}

func TestDecodeStreamReadError(t *testing.T) {
	r := io.MultiReader(strings.NewReader(frames(ev(msgStart))), iotest.ErrReader(errors.New("connection reset by peer")))
	_, err := decodeStream(r, &recSink{}, false)
	if !errors.Is(err, providers.ErrStreamCut) || !strings.Contains(err.Error(), "connection reset by peer") {
		t.Fatalf("err = %v", err)
	}
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
			resp, err := decodeJSON(strings.NewReader(tt.body), false)
			if tt.code != "" {
				var pe *providers.Error
				if !errors.As(err, &pe) || pe.Code != tt.code || strings.Contains(pe.Message, "<html>") {
					t.Fatalf("err = %v, want %s", err, tt.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if resp.Message.Text() != tt.text {
				t.Fatalf("text %q", resp.Message.Text())
			}
		})
	}
}

func TestClassifyNonJSONBody(t *testing.T) {
	for _, status := range []int{400, 401, 404, 429, 500, 502, 503, 529} {
		e := classifyHTTP(&providers.HTTPFailure{Status: status, Body: []byte("<!DOCTYPE html><title>Error</title>")}, true)
		if strings.Contains(e.Message, "<") || e.Code != providers.CodeForStatus(status) {
			t.Errorf("%d: %s %q", status, e.Code, e.Message)
		}
	}
}
