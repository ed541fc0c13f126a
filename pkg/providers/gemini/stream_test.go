package gemini

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/providertest"
)

func TestDecodeStreamVariants(t *testing.T) {
	tests := []struct {
		name   string
		stream string
		parts  []providers.Part
		finish providers.FinishReason
	}{
		{
			name: "thoughts join, a signed thought ends its block, text signature kept after the text",
			stream: frames(
				chunk(`{"text":"a","thought":true}`, ""),
				chunk(`{"text":"b","thought":true,"thoughtSignature":"T1"}`, ""),
				chunk(`{"text":"c","thought":true}`, ""),
				chunk(`{"text":"Hel"}`, ""),
				chunk(`{"text":"lo","thoughtSignature":"X1"}`, ""),
				chunk(`{"text":"","thoughtSignature":"X2"}`, "STOP")),
			parts: []providers.Part{
				{Type: providers.PartReasoning, Reasoning: &providers.Reasoning{Protocol: providers.ProtocolGemini, Text: "ab", Signature: "T1"}},
				{Type: providers.PartReasoning, Reasoning: &providers.Reasoning{Protocol: providers.ProtocolGemini, Text: "c"}},
				{Type: providers.PartText, Text: "Hello"},
				{Type: providers.PartReasoning, Reasoning: &providers.Reasoning{Protocol: providers.ProtocolGemini, Signature: "X1"}},
				{Type: providers.PartReasoning, Reasoning: &providers.Reasoning{Protocol: providers.ProtocolGemini, Signature: "X2"}},
			},
			finish: providers.FinishStop,
		},
		{
			name:   "calls with and without ids, no args, other parts ignored",
			stream: frames(chunk(`{"functionCall":{"id":"fc-1","name":"f","args":{"a":[1, 2]}},"thoughtSignature":"S"},{"functionCall":{"name":"g"}},{"executableCode":{"code":"x"}},{"inlineData":{"mimeType":"image/png","data":""}}`, "STOP")),
			parts: []providers.Part{
				{Type: providers.PartToolCall, ToolCall: &providers.ToolCall{ID: "fc-1", Name: "f", Arguments: `{"a":[1,2]}`, Signature: "S"}},
				{Type: providers.PartToolCall, ToolCall: &providers.ToolCall{ID: "gcall_0c53fdac_1", Name: "g", Arguments: `{}`}},
			},
			finish: providers.FinishToolCalls,
		},
		{
			name:   "LF framing and keep-alive comments",
			stream: strings.ReplaceAll(": keep-alive\r\n\r\n"+frames(chunk(`{"text":"x"}`, ""), chunk(`{"text":"y"}`, "MAX_TOKENS")), "\r\n", "\n"),
			parts:  []providers.Part{{Type: providers.PartText, Text: "xy"}},
			finish: providers.FinishLength,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			providertest.DecodeBothWays(t, decodeStream, tt.stream, func(resp *providers.Response, sink *providertest.Sink) {
				if !reflect.DeepEqual(resp.Message.Parts, tt.parts) {
					t.Fatalf("parts %s\nwant %s", dump(resp.Message.Parts), dump(tt.parts))
				}
				if strings.Join(sink.Text, "") != resp.Message.Text() {
					t.Errorf("deltas %q", sink.Text)
				}
				if resp.FinishReason != tt.finish || resp.Model != "gemini-x" {
					t.Errorf("finish %s model %q", resp.FinishReason, resp.Model)
				}
			})

		})
	}
}

func dump(parts []providers.Part) string {
	var b strings.Builder
	for _, p := range parts {
		switch p.Type {
		case providers.PartText:
			b.WriteString("text(" + p.Text + ") ")
		case providers.PartReasoning:
			b.WriteString("reasoning(" + p.Reasoning.Text + "|" + p.Reasoning.Signature + ") ")
		case providers.PartToolCall:
			b.WriteString("call(" + p.ToolCall.ID + " " + p.ToolCall.Name + " " + p.ToolCall.Arguments + "|" + p.ToolCall.Signature + ") ")
		}
	}
	return b.String()
}

func TestDecodeStreamUsage(t *testing.T) {
	stream := frames(
		`{"candidates":[{"content":{"parts":[{"text":"a"}],"role":"model"}}],"usageMetadata":{"promptTokenCount":100,"totalTokenCount":100}}`,
		`{"candidates":[{"content":{"parts":[{"text":"b"}],"role":"model"},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":100,"cachedContentTokenCount":60,"toolUsePromptTokenCount":5,"candidatesTokenCount":7,"thoughtsTokenCount":20,"totalTokenCount":132}}`)
	resp, err := decodeStream(strings.NewReader(stream), providertest.Discard{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if want := (providers.Usage{InputTokens: 105, OutputTokens: 27, CachedTokens: 60, ReasoningTokens: 20}); resp.Usage != want {
		t.Fatalf("usage %+v, want %+v", resp.Usage, want)
	}
}

func TestDecodeStreamErrors(t *testing.T) {
	providertest.DecodeStreamErrors(t, decodeStream, []providertest.StreamErrorCase{
		{Name: "empty", Stream: "", Code: providers.ErrProviderError, Contains: "without a finish reason", Cut: true},
		{Name: "no finish", Stream: frames(chunk(`{"text":"a"}`, "")), Code: providers.ErrProviderError, Contains: "without a finish reason", Cut: true},
		{Name: "malformed", Stream: frames(chunk(`{"text":"a"}`, ""), `{"candidates":[`), Code: providers.ErrProviderError, Contains: "stream event 2 is not valid JSON"},
		{Name: "not an object", Stream: frames(`[1]`), Code: providers.ErrProviderError, Contains: "not an object"},
		{Name: "error chunk", Stream: frames(`{"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}`), Code: providers.ErrOverloaded, Contains: "overloaded"},
		{Name: "quota chunk", Stream: frames(quotaChunk), Code: providers.ErrRateLimited, Contains: "quota"},
		{Name: "blocked prompt", Stream: frames(`{"promptFeedback":{"blockReason":"SAFETY"}}`), Code: providers.ErrProviderError, Contains: "blocked the prompt (SAFETY)"},
	})
	// The quota chunk's RetryInfo is the wait before a retry.
	var pe *providers.Error
	if _, err := decodeStream(strings.NewReader(frames(quotaChunk)), &providertest.Sink{}, false); !errors.As(err, &pe) || pe.RetryAfter != 2*time.Second {
		t.Fatalf("err %v, want RetryAfter 2s", err)
	}
}

// quotaChunk is an error chunk with a RetryInfo of 2s.
const quotaChunk = `{"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"2s"}]}}`

func TestDecodeStreamReadError(t *testing.T) {
	providertest.DecodeReadError(t, decodeStream, frames(chunk(`{"text":"a"}`, "")))
}

func TestDecodeJSONVariants(t *testing.T) {
	for _, tt := range []struct {
		name, body, text string
		finish           providers.FinishReason
		code             providers.ErrorCode
	}{
		{name: "array of chunks (no alt=sse)", body: `[` + chunk(`{"text":"a"}`, "") + `,` + chunk(`{"text":"b"}`, "STOP") + `]`, text: "ab", finish: providers.FinishStop},
		{name: "safety stop without content", body: `{"candidates":[{"finishReason":"SAFETY","index":0}]}`, finish: providers.FinishContentFilter},
		{name: "error array", body: `[{"error":{"code":400,"message":"bad","status":"INVALID_ARGUMENT"}}]`, code: providers.ErrProviderError},
		{name: "blocked", body: `{"promptFeedback":{"blockReason":"OTHER"}}`, code: providers.ErrProviderError},
		{name: "no candidates", body: `{"usageMetadata":{}}`, code: providers.ErrProviderError},
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

func TestClassifyNonJSONBody(t *testing.T) {
	providertest.ClassifyNonJSONBody(t, classifyHTTP, 400, 401, 404, 429, 500, 502, 503)
}
