package providertest

import (
	"sync"
	"time"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// Sink is a providers.Sink that records every call, for a test to read once
// Complete has returned.
type Sink struct {
	// OnRetry, when set, is called after each Retry is recorded: a test
	// cancels the request there to see it stop while waiting.
	OnRetry func()

	mu sync.Mutex
	// Text holds the text deltas in order.
	Text []string
	// Reasoning holds the reasoning deltas in order.
	Reasoning []string
	// Retries holds the retries announced, in order.
	Retries []RetryCall
}

// RetryCall is one retry a codec announced to its Sink.
type RetryCall struct {
	Attempt int
	Wait    time.Duration
	Reason  string
}

var _ providers.Sink = (*Sink)(nil)

// TextDelta records a text delta.
func (s *Sink) TextDelta(t string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Text = append(s.Text, t)
}

// ReasoningDelta records a reasoning delta.
func (s *Sink) ReasoningDelta(t string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Reasoning = append(s.Reasoning, t)
}

// Retry records a retry announcement, then calls OnRetry.
func (s *Sink) Retry(n int, d time.Duration, reason string) {
	s.mu.Lock()
	s.Retries = append(s.Retries, RetryCall{n, d, reason})
	s.mu.Unlock()
	if s.OnRetry != nil {
		s.OnRetry()
	}
}

// Discard is a providers.Sink that drops everything, for benchmarks and
// tests that look only at the response.
type Discard struct{}

var _ providers.Sink = Discard{}

// TextDelta drops the delta.
func (Discard) TextDelta(string) {}

// ReasoningDelta drops the delta.
func (Discard) ReasoningDelta(string) {}

// Retry drops the announcement.
func (Discard) Retry(int, time.Duration, string) {}
