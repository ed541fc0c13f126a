package openai

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers"
)

func FuzzDecodeStream(f *testing.F) {
	f.Add([]byte(frames(delta(`{"content":"a"}`), finish("stop"), "[DONE]")))
	f.Add([]byte(frames(delta(`{"tool_calls":[{"index":3,"id":"a","function":{"name":"f","arguments":"{"}}]}`), delta(`{"tool_calls":[{"index":-1}]}`), finish("tool_calls"))))
	f.Add([]byte(frames(`{"error":{"message":"x"}}`)))
	f.Add([]byte(frames(`{"choices":[{"index":0,"delta":{"content":[{"type":"thinking","thinking":"t"}]}}],"usage":{"prompt_tokens":1e99}}`)))
	f.Add([]byte("data: {\"choices\":[\r\n\r\n"))
	f.Add([]byte("garbage"))
	f.Fuzz(func(t *testing.T, in []byte) {
		sink := &recSink{}
		resp, err := decodeStream(bytes.NewReader(in), sink, true)
		if err != nil {
			var pe *providers.Error
			if !errors.As(err, &pe) || pe.Message == "" {
				t.Fatalf("error %v is not a *providers.Error with a message", err)
			}
			return
		}
		// A stream is only accepted when it says it is complete.
		if !bytes.Contains(in, []byte("[DONE]")) && !bytes.Contains(in, []byte("finish_reason")) {
			t.Fatalf("accepted a stream without [DONE] or a finish reason: %q", in)
		}
		if got := strings.Join(sink.text, ""); got != resp.Message.Text() {
			t.Fatalf("deltas %q differ from the message text %q", got, resp.Message.Text())
		}
	})
}

func FuzzDecodeJSON(f *testing.F) {
	f.Add([]byte(`{"choices":[{"message":{"content":"hi","tool_calls":[{"id":"a","function":{"name":"f","arguments":"{}"}}]},"finish_reason":"stop"}],"usage":{"prompt_tokens":1}}`))
	f.Add([]byte(`{"error":"x"}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, in []byte) {
		resp, err := decodeJSON(bytes.NewReader(in), true)
		if err != nil {
			var pe *providers.Error
			if !errors.As(err, &pe) || pe.Message == "" {
				t.Fatalf("error %v is not a *providers.Error with a message", err)
			}
			return
		}
		if resp == nil || resp.Message.Role != providers.RoleAssistant {
			t.Fatalf("bad response %+v", resp)
		}
	})
}

func FuzzClassifyHTTP(f *testing.F) {
	f.Add(400, []byte(`{"error":{"message":"does not support tools","code":null}}`))
	f.Add(502, []byte(`<html>`))
	f.Add(429, []byte(`{"message":"x","code":429}`))
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		e := classifyHTTP(&providers.HTTPFailure{Status: status, Body: body}, true)
		if e == nil || e.Code == "" || e.Message == "" {
			t.Fatalf("classifyHTTP(%d, %q) = %+v", status, body, e)
		}
		if len(e.Message) > 1000 {
			t.Fatalf("message of %d bytes", len(e.Message))
		}
	})
}
