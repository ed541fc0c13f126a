package providers

import (
	"context"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
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
	if retryAfter > 0 {
		return min(retryAfter, p.MaxDelay)
	}
	d := p.BaseDelay
	for i := 1; i < attempt && d < p.MaxDelay; i++ {
		d *= 2
	}
	return min(d, p.MaxDelay)
}

// ParseRetryAfter reads how long a provider asks to wait: the non-standard
// retry-after-ms header (OpenAI, Azure) first, then Retry-After as seconds or
// an HTTP date. It returns 0 when neither is present or readable.
func ParseRetryAfter(h http.Header, now time.Time) time.Duration {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 && !math.IsInf(ms, 0) {
			return clampDuration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 || math.IsNaN(s) {
			return 0
		}
		return clampDuration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// clampDuration converts nanoseconds to a Duration without overflowing.
func clampDuration(ns float64) time.Duration {
	if ns >= math.MaxInt64 || math.IsNaN(ns) {
		return time.Duration(math.MaxInt64)
	}
	return time.Duration(ns)
}

// sleepContext waits d, returning early with the context's error when ctx ends.
func sleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-t.C:
		return nil
	}
}
