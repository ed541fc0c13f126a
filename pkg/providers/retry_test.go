package providers

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"
)

func TestRetryPolicyWithDefaults(t *testing.T) {
	got := RetryPolicy{}.WithDefaults()
	if got != DefaultRetryPolicy {
		t.Fatalf("zero policy = %+v, want %+v", got, DefaultRetryPolicy)
	}
	custom := RetryPolicy{MaxRetries: -1, BaseDelay: time.Millisecond, MaxDelay: time.Second}
	if got := custom.WithDefaults(); got != custom {
		t.Fatalf("custom policy changed to %+v", got)
	}
	if got := (RetryPolicy{MaxRetries: 5}).WithDefaults(); got.MaxRetries != 5 || got.BaseDelay != time.Second {
		t.Fatalf("partial policy = %+v", got)
	}
}

func TestRetryPolicyDelay(t *testing.T) {
	p := RetryPolicy{MaxRetries: 10, BaseDelay: time.Second, MaxDelay: 10 * time.Second}
	for _, tt := range []struct {
		attempt    int
		retryAfter time.Duration
		want       time.Duration
	}{
		{1, 0, time.Second},
		{2, 0, 2 * time.Second},
		{3, 0, 4 * time.Second},
		{4, 0, 8 * time.Second},
		{5, 0, 10 * time.Second},
		{60, 0, 10 * time.Second}, // no overflow
		{1, 3 * time.Second, 3 * time.Second},
		{1, time.Hour, 10 * time.Second},
	} {
		if got := p.Delay(tt.attempt, tt.retryAfter); got != tt.want {
			t.Errorf("Delay(%d, %v) = %v, want %v", tt.attempt, tt.retryAfter, got, tt.want)
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tt := range []struct {
		name    string
		headers map[string]string
		want    time.Duration
	}{
		{"none", nil, 0},
		{"seconds", map[string]string{"Retry-After": "2"}, 2 * time.Second},
		{"fractional seconds", map[string]string{"Retry-After": "1.5"}, 1500 * time.Millisecond},
		{"zero", map[string]string{"Retry-After": "0"}, 0},
		{"negative", map[string]string{"Retry-After": "-3"}, 0},
		{"date", map[string]string{"Retry-After": now.Add(30 * time.Second).Format(http.TimeFormat)}, 30 * time.Second},
		{"past date", map[string]string{"Retry-After": now.Add(-time.Minute).Format(http.TimeFormat)}, 0},
		{"garbage", map[string]string{"Retry-After": "soon"}, 0},
		{"ms wins", map[string]string{"Retry-After": "2", "retry-after-ms": "250"}, 250 * time.Millisecond},
		{"bad ms falls back", map[string]string{"Retry-After": "2", "retry-after-ms": "x"}, 2 * time.Second},
		{"huge", map[string]string{"Retry-After": "1e300"}, time.Duration(1<<63 - 1)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tt.headers {
				h.Set(k, v)
			}
			if got := ParseRetryAfter(h, now); got != tt.want {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSleepContextStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := sleepContext(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if err := sleepContext(context.Background(), time.Nanosecond); err != nil {
		t.Fatal(err)
	}
}
