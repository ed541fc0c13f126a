package gemini

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/fake"
)

const testKey = "AIzaSy-test-SECRET-0123456789"

// recSink records every call a codec makes on its sink.
type recSink struct {
	mu        sync.Mutex
	text      []string
	reasoning []string
	retries   []retryCall
	onRetry   func()
}

type retryCall struct {
	attempt int
	wait    time.Duration
	reason  string
}

func (s *recSink) TextDelta(t string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.text = append(s.text, t)
}

func (s *recSink) ReasoningDelta(t string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reasoning = append(s.reasoning, t)
}

func (s *recSink) Retry(n int, d time.Duration, reason string) {
	s.mu.Lock()
	s.retries = append(s.retries, retryCall{n, d, reason})
	s.mu.Unlock()
	if s.onRetry != nil {
		s.onRetry()
	}
}

// newTestClient returns a client of srv whose retry waits are recorded
// instead of slept.
func newTestClient(srv *fake.Server, mutate ...func(*providers.Config)) (*Client, *[]time.Duration) {
	cfg := providers.Config{BaseURL: srv.URL, APIKey: testKey}
	for _, m := range mutate {
		m(&cfg)
	}
	c := New(cfg)
	var slept []time.Duration
	var mu sync.Mutex
	c.transport.Sleep = func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		slept = append(slept, d)
		mu.Unlock()
		return ctx.Err()
	}
	return c, &slept
}

func userRequest(stream bool) *providers.Request {
	return &providers.Request{
		Model:    "gemini-2.5-flash",
		System:   "Be brief.",
		Messages: []providers.Message{{Role: providers.RoleUser, Parts: []providers.Part{{Type: providers.PartText, Text: "What is the weather in Boston?"}}}},
		Stream:   stream,
	}
}

func weatherTool() providers.ToolSpec {
	return providers.ToolSpec{
		Name:        "get_weather",
		Description: "Get the current weather in a given location",
		Parameters:  []byte(`{"type":"object","properties":{"location":{"type":"string"}},"required":["location"]}`),
	}
}

// mustProviderError asserts err is a *providers.Error with code.
func mustProviderError(t *testing.T, err error, code providers.ErrorCode) *providers.Error {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %s", code)
	}
	pe, ok := err.(*providers.Error)
	if !ok {
		t.Fatalf("error %T %v is not *providers.Error", err, err)
	}
	if pe.Code != code {
		t.Fatalf("code %s (%v), want %s", pe.Code, err, code)
	}
	if strings.Contains(fmt.Sprint(err), testKey) || strings.Contains(pe.Message, testKey) {
		t.Fatalf("error leaks the key: %v", err)
	}
	return pe
}

// discard is a sink that drops everything.
type discard = discardSink

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
