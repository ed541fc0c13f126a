package anthropic

import (
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/fake"
	"github.com/tavo-cli/tavo/pkg/providers/providertest"
)

const testKey = "sk-ant-test-SECRET-0123456789"

// codec describes this package's client to the shared checks of providertest.
var codec = providertest.Codec[*Client]{Model: "claude-sonnet-4-5", ToolName: "get_weather", Key: testKey, New: newTestClient}

// newTestClient returns a client of srv whose retry waits are recorded
// instead of slept.
func newTestClient(srv *fake.Server, mutate ...func(*providers.Config)) (*Client, *[]time.Duration) {
	c := New(providertest.Config(srv.URL, testKey, mutate...))
	var slept *[]time.Duration
	c.transport.Sleep, slept = providertest.RecordSleeps()
	return c, slept
}

// frames renders named events as SSE.
func frames(events ...[2]string) string {
	var b strings.Builder
	for _, e := range events {
		b.WriteString("event: " + e[0] + "\ndata: " + e[1] + "\n\n")
	}
	return b.String()
}

// ev is one event for frames, named by its data's type as the API does.
func ev(data string) [2]string {
	return [2]string{gjson.Get(data, "type").String(), data}
}
