package responses

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/providertest"
)

// BenchmarkDecodeStream decodes a 1000-event stream shaped like the real
// API's (same event fields as the fixtures): 900 output_text deltas, then a
// function call whose arguments arrive in 98 deltas, then response.completed.
func BenchmarkDecodeStream(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteString(frames(added("0", `{"id":"msg_67c9fdcf37fc8190ba82116e33fb28c507b8b0ad4e5eb654","type":"message","status":"in_progress","content":[],"role":"assistant"}`)))
	for i := 0; i < 900; i++ {
		fmt.Fprintf(&buf, "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"item_id\":\"msg_67c9fdcf37fc8190ba82116e33fb28c507b8b0ad4e5eb654\",\"output_index\":0,\"content_index\":0,\"delta\":\" word%d\",\"logprobs\":[],\"sequence_number\":%d}\n\n", i, i+3)
	}
	buf.WriteString(frames(added("1", `{"id":"fc_68a1c9b5d2e08190a9b8c7d6e5f4a3b2","type":"function_call","status":"in_progress","arguments":"","call_id":"call_unLAR8MvFNptuiZK6K6HCy5k","name":"get_current_weather"}`)))
	for i := 0; i < 98; i++ {
		fmt.Fprintf(&buf, "event: response.function_call_arguments.delta\ndata: {\"type\":\"response.function_call_arguments.delta\",\"item_id\":\"fc_68a1c9b5d2e08190a9b8c7d6e5f4a3b2\",\"output_index\":1,\"delta\":\"{\\\"k%d\\\":1}\",\"sequence_number\":%d}\n\n", i, i+905)
	}
	buf.WriteString(frames(`{"type":"response.completed","response":{"id":"r","status":"completed","model":"gpt-5","output":[],"usage":{"input_tokens":10,"output_tokens":1000}}}`))
	providertest.BenchDecode(b, decodeStream, buf.Bytes(), 1000, "ns/event", func(resp *providers.Response) bool {
		return resp.Usage.OutputTokens == 1000 && len(resp.Message.ToolCalls()) == 1
	})
}
