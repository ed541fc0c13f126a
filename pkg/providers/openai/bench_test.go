package openai

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/providertest"
)

// BenchmarkDecodeStream decodes a 1000-chunk stream shaped like the real
// API's (same chunk fields as the fixtures), text plus one tool call.
func BenchmarkDecodeStream(b *testing.B) {
	var buf bytes.Buffer
	const head = `{"id":"chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG","object":"chat.completion.chunk","created":1741570283,"model":"gpt-4.1-2025-04-14","service_tier":"default","system_fingerprint":"fp_b3f1157249","choices":[{"index":0,"delta":`
	const tail = `,"logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":"xxxx"}`
	for i := 0; i < 900; i++ {
		fmt.Fprintf(&buf, "data: %s{\"content\":\" word%d\"}%s\n\n", head, i, tail)
	}
	fmt.Fprintf(&buf, "data: %s{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"\"}}]}%s\n\n", head, tail)
	for i := 0; i < 98; i++ {
		fmt.Fprintf(&buf, "data: %s{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"k%d\\\":1}\"}}]}%s\n\n", head, i, tail)
	}
	buf.WriteString(`data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":10,"completion_tokens":1000}}` + "\n\ndata: [DONE]\n\n")
	providertest.BenchDecode(b, decodeStream, buf.Bytes(), 1000, "ns/chunk", func(resp *providers.Response) bool {
		return resp.Usage.OutputTokens == 1000
	})
}
