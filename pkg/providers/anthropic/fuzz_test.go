package anthropic

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers"
)

func FuzzDecodeStream(f *testing.F) {
	f.Add([]byte(frames(ev(msgStart), ev(blockStart("0", `{"type":"text","text":""}`)), ev(blockDelta("0", `{"type":"text_delta","text":"a"}`)), ev(msgDelta("end_turn")), ev(msgStop))))
	f.Add([]byte(frames(ev(blockStart("1", `{"type":"tool_use","id":"t","name":"f","input":{"a":1}}`)), ev(blockDelta("1", `{"type":"input_json_delta","partial_json":"{"}`)), ev(blockStart("1", `{"type":"text","text":"again"}`)), ev(msgDelta("tool_use")))))
	f.Add([]byte(frames(ev(blockStart("-1", `{"type":"thinking","thinking":"t"}`)), ev(blockDelta("-1", `{"type":"signature_delta","signature":"s"}`)), ev(msgStop))))
	f.Add([]byte(frames(ev(`{"type":"error","error":{"type":"overloaded_error","message":"x"}}`))))
	f.Add([]byte("event: message_start\r\ndata: {\"type\":\r\n\r\n"))
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
		if !bytes.Contains(in, []byte("message_stop")) && !bytes.Contains(in, []byte("stop_reason")) {
			t.Fatalf("accepted a stream without message_stop or a stop reason: %q", in)
		}
		if got := strings.Join(sink.text, ""); got != resp.Message.Text() {
			t.Fatalf("deltas %q differ from the message text %q", got, resp.Message.Text())
		}
	})
}

func FuzzDecodeJSON(f *testing.F) {
	f.Add([]byte(`{"type":"message","content":[{"type":"thinking","thinking":"t","signature":"s"},{"type":"text","text":"hi"},{"type":"tool_use","id":"a","name":"f","input":{}}],"stop_reason":"tool_use","usage":{"input_tokens":1}}`))
	f.Add([]byte(`{"type":"error","error":{"type":"x"}}`))
	f.Add([]byte(`{"content":[1,"a",null]}`))
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
	f.Add(400, []byte(`{"type":"error","error":{"type":"invalid_request_error","message":"tools.0.input_schema: bad"}}`))
	f.Add(529, []byte(`<html>`))
	f.Add(429, []byte(`{"error":"slow"}`))
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		e := classifyHTTP(&providers.HTTPFailure{Status: status, Body: body}, true)
		if e == nil || e.Code == "" || e.Message == "" || len(e.Message) > 1000 {
			t.Fatalf("classifyHTTP(%d, %q) = %+v", status, body, e)
		}
	})
}
