package openai

import (
	"time"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/fake"
	"github.com/tavo-cli/tavo/pkg/providers/providertest"
)

const testKey = "sk-test-SECRET-0123456789"

// codec describes this package's client to the shared checks of providertest.
var codec = providertest.Codec[*Client]{Model: "gpt-4.1", ToolName: "get_current_weather", Key: testKey, New: newTestClient}

// newTestClient returns a client of srv whose retry waits are recorded
// instead of slept.
func newTestClient(srv *fake.Server, mutate ...func(*providers.Config)) (*Client, *[]time.Duration) {
	c := New(providertest.Config(srv.URL, testKey, mutate...))
	var slept *[]time.Duration
	c.transport.Sleep, slept = providertest.RecordSleeps()
	return c, slept
}
