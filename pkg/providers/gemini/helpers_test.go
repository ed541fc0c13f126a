package gemini

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/fake"
	"github.com/tavo-cli/tavo/pkg/providers/providertest"
)

const testKey = "AIzaSy-test-SECRET-0123456789"

// codec describes this package's client to the shared checks of providertest.
var codec = providertest.Codec[*Client]{Model: "gemini-2.5-flash", ToolName: "get_weather", Key: testKey, New: newTestClient}

// newTestClient returns a client of srv whose retry waits are recorded
// instead of slept.
func newTestClient(srv *fake.Server, mutate ...func(*providers.Config)) (*Client, *[]time.Duration) {
	c := New(providertest.Config(srv.URL, testKey, mutate...))
	var slept *[]time.Duration
	c.transport.Sleep, slept = providertest.RecordSleeps()
	return c, slept
}

// frames renders data-only events with CRLF framing, as Gemini sends them.
func frames(chunks ...string) string {
	var b strings.Builder
	for _, c := range chunks {
		b.WriteString("data: " + c + "\r\n\r\n")
	}
	return b.String()
}

// chunk is one GenerateContentResponse with the given parts.
func chunk(parts, finish string) string {
	c := `{"candidates":[{"content":{"parts":[` + parts + `],"role":"model"},"index":0`
	if finish != "" {
		c += `,"finishReason":"` + finish + `"`
	}
	return c + `}],"modelVersion":"gemini-x","responseId":"r1"}`
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }
