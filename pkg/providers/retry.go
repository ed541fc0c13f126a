package providers

import (
	"context"
	"net/http"
	"time"

	"github.com/tavo-cli/tavo/pkg/httpx"
)

// WithDefaults returns p with every zero field taken from DefaultRetryPolicy.
func (p RetryPolicy) WithDefaults() RetryPolicy {
	if p.MaxRetries == 0 {
		p.MaxRetries = DefaultRetryPolicy.MaxRetries
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = DefaultRetryPolicy.BaseDelay
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = DefaultRetryPolicy.MaxDelay
	}
	return p
}

// Delay is the wait before retry number attempt (1 for the first retry):
// the provider's retryAfter when it gave one, else BaseDelay doubled for each
// earlier retry; either way at most MaxDelay. p must have its defaults.
func (p RetryPolicy) Delay(attempt int, retryAfter time.Duration) time.Duration {
	return httpx.Policy{MaxRetries: p.MaxRetries, BaseDelay: p.BaseDelay, MaxDelay: p.MaxDelay}.Delay(attempt, retryAfter)
}

// ParseRetryAfter reads how long a provider asks to wait: retry-after-ms
// first, then Retry-After as seconds or an HTTP date (see httpx.RetryAfter).
// Gemini says it in the error body instead (RetryInfo), which its codec's
// classifier reads into Error.RetryAfter.
func ParseRetryAfter(h http.Header, now time.Time) time.Duration { return httpx.RetryAfter(h, now) }

// sleepContext waits d, returning early with the context's error when ctx ends.
func sleepContext(ctx context.Context, d time.Duration) error { return httpx.Sleep(ctx, d) }
