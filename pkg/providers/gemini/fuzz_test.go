package gemini

import (
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/providertest"
)

func FuzzDecodeStream(f *testing.F) {
	f.Add([]byte(frames(chunk(`{"text":"a","thought":true,"thoughtSignature":"s"}`, ""), chunk(`{"text":"b"}`, "STOP"))))
	f.Add([]byte(frames(chunk(`{"functionCall":{"name":"f","args":{"a":1}},"thoughtSignature":"s"},{"functionCall":{"name":"g","args":[]}}`, "STOP"))))
	f.Add([]byte(frames(`{"error":{"code":429,"status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"1e9s"}]}}`)))
	f.Add([]byte(frames(`{"promptFeedback":{"blockReason":"SAFETY"},"usageMetadata":{"promptTokenCount":1e99}}`)))
	f.Add([]byte("data: {\"candidates\":[\r\n\r\n"))
	f.Add([]byte("garbage"))
	providertest.FuzzDecodeStream(f, decodeStream, "finishReason")
}

func FuzzDecodeJSON(f *testing.F) {
	f.Add([]byte(`{"candidates":[{"content":{"parts":[{"text":"hi"},{"functionCall":{"name":"f"}}]},"finishReason":"STOP"}]}`))
	f.Add([]byte(`[{"error":{"message":"x"}}]`))
	f.Add([]byte(`[]`))
	providertest.FuzzDecodeJSON(f, decodeJSON)
}

func FuzzClassifyHTTP(f *testing.F) {
	f.Add(400, []byte(`{"error":{"code":400,"message":"* GenerateContentRequest.tools[0].function_declarations[0]: bad","status":"INVALID_ARGUMENT"}}`))
	f.Add(429, []byte(`{"error":{"details":[{"@type":"google.rpc.RetryInfo","retryDelay":"-5s"}]}}`))
	f.Add(503, []byte(`<html>`))
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		e := classifyHTTP(&providers.HTTPFailure{Status: status, Body: body}, true)
		if e == nil || e.Code == "" || e.Message == "" || len(e.Message) > 1000 || e.RetryAfter < 0 {
			t.Fatalf("classifyHTTP(%d, %q) = %+v", status, body, e)
		}
	})
}

func FuzzToGeminiSchema(f *testing.F) {
	f.Add([]byte(`{"type":"object","properties":{"a":{"$ref":"#"},"b":{"anyOf":[{"type":"null"},{"enum":[1,"x"]}]}}}`))
	f.Add([]byte(`{"allOf":[{"$ref":"#/allOf/0"}]}`))
	f.Add([]byte(`{"type":["object","array","null"],"items":{"items":{}},"properties":{"x":{"type":"integer","exclusiveMinimum":true}}}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := toGeminiSchema(in)
		if err != nil || out == nil {
			return
		}
		checkGeminiSubset(t, "$", out)
	})
}
