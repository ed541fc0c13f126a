package responses

import (
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers/providertest"
)

func FuzzDecodeStream(f *testing.F) {
	f.Add([]byte(frames(added("0", `{"type":"message","id":"m"}`), `{"type":"response.output_text.delta","item_id":"m","output_index":0,"delta":"hi"}`, completed(""))))
	f.Add([]byte(frames(added("1", `{"type":"function_call","id":"fc","call_id":"c","name":"f"}`), `{"type":"response.function_call_arguments.delta","item_id":"fc","output_index":1,"delta":"{"}`, `{"type":"response.output_text.delta","item_id":"fc","delta":"x"}`, completed(`{"type":"message","id":"fc","content":[{"type":"output_text","text":"y"}]}`))))
	f.Add([]byte(frames(`{"type":"response.reasoning_summary_text.delta","output_index":-1,"summary_index":3,"delta":"r"}`, `{"type":"response.incomplete","response":{"output":[1,null]}}`)))
	f.Add([]byte(frames(`{"type":"error","code":"x"}`)))
	f.Add([]byte("event: response.completed\ndata: {\"type\":\r\n\r\n"))
	f.Add([]byte("garbage"))
	providertest.FuzzDecodeStream(f, decodeStream, "response.completed", "response.incomplete")
}

func FuzzDecodeJSON(f *testing.F) {
	f.Add([]byte(`{"status":"completed","output":[{"type":"reasoning","id":"r","summary":[{"text":"s"}],"encrypted_content":"e"},{"type":"function_call","call_id":"c","name":"f","arguments":"{}"}]}`))
	f.Add([]byte(`{"error":"x"}`))
	f.Add([]byte(`{"output":{}}`))
	providertest.FuzzDecodeJSON(f, decodeJSON)
}
