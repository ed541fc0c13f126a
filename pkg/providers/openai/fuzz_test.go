package openai

import (
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers/providertest"
)

func FuzzDecodeStream(f *testing.F) {
	f.Add([]byte(frames(delta(`{"content":"a"}`), finish("stop"), "[DONE]")))
	f.Add([]byte(frames(delta(`{"tool_calls":[{"index":3,"id":"a","function":{"name":"f","arguments":"{"}}]}`), delta(`{"tool_calls":[{"index":-1}]}`), finish("tool_calls"))))
	f.Add([]byte(frames(`{"error":{"message":"x"}}`)))
	f.Add([]byte(frames(`{"choices":[{"index":0,"delta":{"content":[{"type":"thinking","thinking":"t"}]}}],"usage":{"prompt_tokens":1e99}}`)))
	f.Add([]byte("data: {\"choices\":[\r\n\r\n"))
	f.Add([]byte("garbage"))
	providertest.FuzzDecodeStream(f, decodeStream, "[DONE]", "finish_reason")
}

func FuzzDecodeJSON(f *testing.F) {
	f.Add([]byte(`{"choices":[{"message":{"content":"hi","tool_calls":[{"id":"a","function":{"name":"f","arguments":"{}"}}]},"finish_reason":"stop"}],"usage":{"prompt_tokens":1}}`))
	f.Add([]byte(`{"error":"x"}`))
	f.Add([]byte(`[]`))
	providertest.FuzzDecodeJSON(f, decodeJSON)
}

func FuzzClassifyHTTP(f *testing.F) {
	f.Add(400, []byte(`{"error":{"message":"does not support tools","code":null}}`))
	f.Add(502, []byte(`<html>`))
	f.Add(429, []byte(`{"message":"x","code":429}`))
	providertest.FuzzClassify(f, classifyHTTP)
}
