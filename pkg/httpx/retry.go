package httpx

import (
	"context"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Policy says how often and how long Client.Do waits before trying again.
type Policy struct {
	// MaxRetries is the number of retries after the first attempt; zero or
	// negative means none.
	MaxRetries int
	// BaseDelay is the first backoff wait, doubled for each later retry.
	BaseDelay time.Duration
	// MaxDelay caps one wait, a server's own Retry-After included.
	MaxDelay time.Duration
}

// Delay is the wait before retry number attempt (1 for the first retry):
// asked when the server asked for a wait, else BaseDelay doubled for each
// earlier retry; either way at most MaxDelay (when MaxDelay is set).
func (p Policy) Delay(attempt int, asked time.Duration) time.Duration {
	if asked > 0 {
		return p.cap(asked)
	}
	d := p.BaseDelay
	for i := 1; i < attempt && (p.MaxDelay <= 0 || d < p.MaxDelay) && d < time.Duration(math.MaxInt64/2); i++ {
		d *= 2
	}
	return p.cap(d)
}

func (p Policy) cap(d time.Duration) time.Duration {
	if p.MaxDelay > 0 {
		return min(d, p.MaxDelay)
	}
	return d
}

// RetryAfter reads how long a server asks to wait: the non-standard
// retry-after-ms header (OpenAI, Azure) first, then Retry-After as seconds
// or an HTTP date. It returns 0 when neither is present or readable.
func RetryAfter(h http.Header, now time.Time) time.Duration {
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

// Sleep waits d, returning early with the context's cause when ctx ends.
func Sleep(ctx context.Context, d time.Duration) error {
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
