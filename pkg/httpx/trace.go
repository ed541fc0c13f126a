package httpx

import (
	"context"
	"net/url"
	"sort"
	"strings"
	"time"
)

// Trace is told what Client.Do does, for `tavo -v`: each attempt with its
// answer and duration, and each decision to retry. It travels in the
// context (like net/http/httptrace), so every caller of Client.Do —
// providers, search, fetch, profile checks — reports without being told;
// the command layer installs one when asked to be verbose.
type Trace struct {
	// Attempt is called after each attempt. Nil tells no one.
	Attempt func(AttemptInfo)
	// Retry is called when an attempt will be retried, before the wait:
	// attempt is 1 for the first retry. Nil tells no one.
	Retry func(attempt int, wait time.Duration, reason string)
}

// AttemptInfo describes one attempt of an Exchange.
type AttemptInfo struct {
	Method string
	// URL is the request's URL without secrets (RedactURL).
	URL string
	// Status is the HTTP status, 0 when no answer came.
	Status int
	// Duration runs from sending the request to its answer's headers.
	Duration time.Duration
	// Err is why no answer came; nil when one did.
	Err error
}

type traceKey struct{}

// WithTrace returns ctx carrying t; Client.Do reports to it.
func WithTrace(ctx context.Context, t *Trace) context.Context {
	return context.WithValue(ctx, traceKey{}, t)
}

// TraceFrom returns the Trace in ctx, nil when there is none.
func TraceFrom(ctx context.Context) *Trace {
	t, _ := ctx.Value(traceKey{}).(*Trace)
	return t
}

// RedactURL returns raw fit to print: no user name or password, and every
// query value replaced by "…", since some APIs take their key in the query
// (Gemini's ?key=); the names stay, to show which parameters were sent.
// A URL that does not parse is reduced to "(invalid URL)".
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(invalid URL)"
	}
	u.User = nil
	u.Fragment = ""
	if u.RawQuery != "" {
		q := u.Query()
		names := make([]string, 0, len(q))
		for k := range q {
			names = append(names, k)
		}
		sort.Strings(names)
		for i, k := range names {
			names[i] = url.QueryEscape(k) + "=…"
		}
		u.RawQuery = strings.Join(names, "&")
	}
	return u.String()
}
