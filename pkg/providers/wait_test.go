package providers

import (
	"testing"
	"time"
)

func TestWaitFromMessage(t *testing.T) {
	for msg, want := range map[string]time.Duration{
		"Rate limit reached. Please try again in 2s.":                                                         2 * time.Second,
		"Rate limit reached for gpt-4.1 on requests per min (RPM). Please try again in 1.2s. Visit https://…": 1200 * time.Millisecond,
		"Please try again in 20ms.":      20 * time.Millisecond,
		"Please try again in 1m30s.":     90 * time.Second,
		"Please Try Again In 3 seconds.": 3 * time.Second,
		"Rate limit reached.":            0,
		"Please try again in a moment.":  0,
		"Please try again in 0s.":        0,
		"Please try again in 5h.":        0,
		"try again in .":                 0,
	} {
		if got := WaitFromMessage(msg); got != want {
			t.Errorf("WaitFromMessage(%q) = %v, want %v", msg, got, want)
		}
	}
}
