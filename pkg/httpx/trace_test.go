package httpx

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestTraceSeesEveryAttemptAndRetry: a Trace in the context hears each
// attempt (method, URL without the query's values, status) and each retry
// decision, with and without a retry policy.
func TestTraceSeesEveryAttemptAndRetry(t *testing.T) {
	for _, retries := range []int{0, 2} {
		url, _ := scripted(t, 503, 200)
		var log []string
		ctx := WithTrace(context.Background(), &Trace{
			Attempt: func(a AttemptInfo) {
				if a.Duration < 0 {
					t.Errorf("negative duration %s", a.Duration)
				}
				log = append(log, fmt.Sprintf("%s %s %d", a.Method, strings.TrimPrefix(a.URL, url), a.Status))
			},
			Retry: func(n int, wait time.Duration, reason string) {
				log = append(log, fmt.Sprintf("retry %d %s %s", n, wait, reason))
			},
		})
		c := &Client{Policy: Policy{MaxRetries: retries, BaseDelay: time.Second}, Sleep: func(context.Context, time.Duration) error { return nil }}
		_, err := c.Do(ctx, &Exchange{Method: http.MethodGet, URL: url + "/v1/models?key=sk-secret&alt=sse",
			Handle: func(resp *http.Response, err error) Verdict {
				return Verdict{Retry: resp != nil && resp.StatusCode == 503, Reason: "busy"}
			}})
		if err != nil {
			t.Fatal(err)
		}
		want := "[GET /v1/models?alt=…&key=… 503]"
		if retries > 0 {
			want = "[GET /v1/models?alt=…&key=… 503 retry 1 1s busy GET /v1/models?alt=…&key=… 200]"
		}
		if got := fmt.Sprint(log); got != want {
			t.Errorf("retries %d: log %s, want %s", retries, got, want)
		}
	}
}

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://user:pw@api.example.com/v1/x?key=sk-1#frag": "https://api.example.com/v1/x?key=…",
		"http://127.0.0.1:8080/chat/completions":             "http://127.0.0.1:8080/chat/completions",
		"http://[::1":                                        "(invalid URL)",
	} {
		if got := RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}
