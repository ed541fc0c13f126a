package responses

import (
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/fake"
	"github.com/tavo-cli/tavo/pkg/providers/providertest"
)

const testKey = "sk-test-SECRET-0123456789"

// codec describes this package's client to the shared checks of providertest.
var codec = providertest.Codec[*Client]{Model: "gpt-5", ToolName: "get_current_weather", Key: testKey, New: newTestClient}

// newTestClient returns a client of srv whose retry waits are recorded
// instead of slept.
func newTestClient(srv *fake.Server, mutate ...func(*providers.Config)) (*Client, *[]time.Duration) {
	c := New(providertest.Config(srv.URL, testKey, mutate...))
	var slept *[]time.Duration
	c.transport.Sleep, slept = providertest.RecordSleeps()
	return c, slept
}

// frames renders events named by their data's type, as the API sends them.
func frames(events ...string) string {
	var b strings.Builder
	for _, e := range events {
		b.WriteString("event: " + gjson.Get(e, "type").String() + "\ndata: " + e + "\n\n")
	}
	return b.String()
}
