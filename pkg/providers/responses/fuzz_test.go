package responses

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers"
)

func FuzzDecodeStream(f *testing.F) {
	f.Add([]byte(frames(added("0", `{"type":"message","id":"m"}`), `{"type":"response.output_text.delta","item_id":"m","output_index":0,"delta":"hi"}`, completed(""))))
	f.Add([]byte(frames(added("1", `{"type":"function_call","id":"fc","call_id":"c","name":"f"}`), `{"type":"response.function_call_arguments.delta","item_id":"fc","output_index":1,"delta":"{"}`, `{"type":"response.output_text.delta","item_id":"fc","delta":"x"}`, completed(`{"type":"message","id":"fc","content":[{"type":"output_text","text":"y"}]}`))))
	f.Add([]byte(frames(`{"type":"response.reasoning_summary_text.delta","output_index":-1,"summary_index":3,"delta":"r"}`, `{"type":"response.incomplete","response":{"output":[1,null]}}`)))
	f.Add([]byte(frames(`{"type":"error","code":"x"}`)))
	f.Add([]byte("event: response.completed\ndata: {\"type\":\r\n\r\n"))
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
		if !bytes.Contains(in, []byte("response.completed")) && !bytes.Contains(in, []byte("response.incomplete")) {
			t.Fatalf("accepted a stream without response.completed: %q", in)
		}
		if got := strings.Join(sink.text, ""); got != resp.Message.Text() {
			t.Fatalf("deltas %q differ from the message text %q", got, resp.Message.Text())
		}
	})
}

func FuzzDecodeJSON(f *testing.F) {
	f.Add([]byte(`{"status":"completed","output":[{"type":"reasoning","id":"r","summary":[{"text":"s"}],"encrypted_content":"e"},{"type":"function_call","call_id":"c","name":"f","arguments":"{}"}]}`))
	f.Add([]byte(`{"error":"x"}`))
	f.Add([]byte(`{"output":{}}`))
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
