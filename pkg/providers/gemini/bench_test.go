package gemini

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/providertest"
	"github.com/tavo-cli/tavo/pkg/tools/askuser"
)

// BenchmarkDecodeStream decodes a 1000-chunk alt=sse stream shaped like the
// real API's (CRLF framing, usageMetadata and modelVersion on every chunk),
// text then two function calls.
func BenchmarkDecodeStream(b *testing.B) {
	var buf bytes.Buffer
	const tail = `],"role": "model"},"index": 0}],"usageMetadata": {"promptTokenCount": 48,"candidatesTokenCount": 26,"totalTokenCount": 74,"promptTokensDetails": [{"modality": "TEXT","tokenCount": 48}]},"modelVersion": "gemini-2.5-flash","responseId": "Il0taoSYJ5Cez7IPpd2U0QM"}`
	for i := 0; i < 999; i++ {
		fmt.Fprintf(&buf, "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \" word%d\"}%s\r\n\r\n", i, tail)
	}
	fmt.Fprintf(&buf, "data: {\"candidates\": [{\"content\": {\"parts\": [{\"functionCall\": {\"name\": \"get_weather\",\"args\": {\"location\": \"Boston, MA\"}},\"thoughtSignature\": \"CiQBcsjafH7vz8jxNNpQ0k1nJY2b3\"},{\"functionCall\": {\"name\": \"get_weather\",\"args\": {\"location\": \"Paris\"}}}],\"role\": \"model\"},\"finishReason\": \"STOP\",\"index\": 0}],\"usageMetadata\": {\"promptTokenCount\": 48,\"candidatesTokenCount\": 1000,\"totalTokenCount\": 1048},\"modelVersion\": \"gemini-2.5-flash\"}\r\n\r\n")
	providertest.BenchDecode(b, decodeStream, buf.Bytes(), 1000, "ns/chunk", func(resp *providers.Response) bool {
		return resp.Usage.OutputTokens == 1000 && len(resp.Message.ToolCalls()) == 2
	})
}

// BenchmarkToGeminiSchema translates tavo_ask_user's schema, the most nested
// built-in one, as every request with tools does for each tool.
func BenchmarkToGeminiSchema(b *testing.B) {
	schema := askuser.New().Spec().Parameters
	b.ReportAllocs()
	for b.Loop() {
		if out, err := toGeminiSchema(schema); err != nil || out == nil {
			b.Fatal(err)
		}
	}
}
