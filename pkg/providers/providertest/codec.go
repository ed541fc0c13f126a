package providertest

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/fake"
)

// Codec is what the shared checks need to know of the codec under test. C
// is the codec's client type, so that a package's own newTestClient can be
// New as it is.
type Codec[C providers.Provider] struct {
	// Model is the model name of the standard request.
	Model string
	// ToolName is the name of the weather tool in the codec's fixtures.
	ToolName string
	// Key is the API key New gives the client; no error may show it.
	Key string
	// New returns a client of srv, its config changed by each mutate, whose
	// retry waits are appended to the returned slice instead of slept.
	New func(srv *fake.Server, mutate ...func(*providers.Config)) (C, *[]time.Duration)
}

// Request is UserRequest for the codec's model.
func (c Codec[C]) Request(stream bool) *providers.Request { return UserRequest(c.Model, stream) }

// WeatherTool is WeatherTool under the codec's tool name.
func (c Codec[C]) WeatherTool() providers.ToolSpec { return WeatherTool(c.ToolName) }

// Play sends req to a fresh fake that plays replies, with a new Sink, and
// fails t if Complete fails.
func (c Codec[C]) Play(t *testing.T, req *providers.Request, replies ...fake.Reply) (*providers.Response, *Sink) {
	t.Helper()
	srv := fake.NewServer(t)
	srv.Enqueue(replies...)
	client, _ := c.New(srv)
	sink := &Sink{}
	resp, err := client.Complete(context.Background(), req, sink)
	if err != nil {
		t.Fatal(err)
	}
	return resp, sink
}

// Sent sends req to a fresh fake that answers "ok", with a client whose
// config each mutate that is not nil changes, and returns the request the
// fake received.
func (c Codec[C]) Sent(t *testing.T, req *providers.Request, mutate ...func(*providers.Config)) fake.Request {
	t.Helper()
	srv := fake.NewServer(t)
	srv.Enqueue(fake.Reply{Text: "ok"})
	var muts []func(*providers.Config)
	for _, m := range mutate {
		if m != nil {
			muts = append(muts, m)
		}
	}
	// Without a key or with another auth header the client stands for an
	// OpenAI-compatible server, not the API, whose key rule the fake keeps.
	probe := providers.Config{APIKey: "k"}
	for _, m := range muts {
		m(&probe)
	}
	if probe.APIKey == "" || probe.AuthHeader != "" {
		srv.CheckRoutes(false)
	}
	client, _ := c.New(srv, muts...)
	if _, err := client.Complete(context.Background(), req, &Sink{}); err != nil {
		t.Fatal(err)
	}
	return srv.Requests()[0]
}

// Config is the config of a test client: base URL, key, then each mutate
// applied in turn.
func Config(baseURL, key string, mutate ...func(*providers.Config)) providers.Config {
	cfg := providers.Config{BaseURL: baseURL, APIKey: key}
	for _, m := range mutate {
		m(&cfg)
	}
	return cfg
}

// RecordSleeps returns a Transport.Sleep that sleeps not at all: it appends
// each wait to *slept and returns ctx's error, so retry tests run at once
// and can check the waits.
func RecordSleeps() (sleep func(ctx context.Context, d time.Duration) error, slept *[]time.Duration) {
	var mu sync.Mutex
	slept = new([]time.Duration)
	sleep = func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		*slept = append(*slept, d)
		mu.Unlock()
		return ctx.Err()
	}
	return sleep, slept
}

// CheckHeaders fails t for each header of want that h lacks or holds with
// another value, and for each header of absent that h holds.
func CheckHeaders(t *testing.T, h http.Header, want map[string]string, absent ...string) {
	t.Helper()
	for k, v := range want {
		if h.Get(k) != v {
			t.Errorf("header %s = %q, want %q", k, h.Get(k), v)
		}
	}
	for _, k := range absent {
		if h.Get(k) != "" {
			t.Errorf("header %s sent: %q", k, h.Get(k))
		}
	}
}
