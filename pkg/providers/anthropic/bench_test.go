package anthropic

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/providertest"
)

// BenchmarkDecodeStream decodes a 1000-event stream shaped like the real
// API's (same event fields as the fixtures): 900 text deltas, then one
// tool_use block whose input arrives in 98 fragments.
func BenchmarkDecodeStream(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteString(frames(ev(msgStart), ev(blockStart("0", `{"type":"text","text":"","citations":null}`))))
	for i := 0; i < 900; i++ {
		fmt.Fprintf(&buf, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\" word%d\"}}\n\n", i)
	}
	buf.WriteString(frames(ev(blockStop("0")), ev(blockStart("1", `{"type":"tool_use","id":"toolu_01T1x1fJ34qAmk2tNTrN7Up6","name":"get_weather","input":{},"caller":{"type":"direct"}}`))))
	for i := 0; i < 98; i++ {
		fmt.Fprintf(&buf, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"k%d\\\":1}\"}}\n\n", i)
	}
	buf.WriteString(frames(ev(blockStop("1")), ev(`{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":1000}}`), ev(msgStop)))
	providertest.BenchDecode(b, decodeStream, buf.Bytes(), 1000, "ns/event", func(resp *providers.Response) bool {
		return resp.Usage.OutputTokens == 1000
	})
}
