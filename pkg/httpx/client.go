package httpx

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/go-resty/resty/v2"
)

// Client sends requests through resty, retrying by Policy. The zero value
// works: a client with ProviderTimeouts and no retries.
//
// Resty's own backoff sleeps on a timer that cannot be replaced and adds
// jitter, so Client asks it to wait (almost) nothing and waits itself, in
// the retry hook, with Sleep: that keeps resty's loop, conditions and hooks
// while tests see every wait without waiting.
type Client struct {
	// HTTP sends each attempt; nil means NewHTTPClient(ProviderTimeouts).
	HTTP *http.Client
	// Policy is the retry policy.
	Policy Policy
	// Sleep waits before a retry and must return early with an error when
	// ctx ends. Nil means Sleep (a timer).
	Sleep func(ctx context.Context, d time.Duration) error
}

// Exchange is one logical request: the same method, URL, headers and body
// on every attempt.
type Exchange struct {
	Method string
	URL    string
	Header http.Header
	// Body is sent as is; nil sends none.
	Body []byte
	// Handle judges one attempt: resp is the answer with its body unread
	// (Handle reads it, as a stream if it likes; Do closes it after), or
	// err the failure to get one (resp is then nil). It returns whether to
	// try again and why.
	Handle func(resp *http.Response, err error) Verdict
	// OnRetry is told of each retry before its wait: attempt is 1 for the
	// first retry. Nil tells no one.
	OnRetry func(attempt int, wait time.Duration, reason string)
}

// Verdict is what Exchange.Handle decides about one attempt.
type Verdict struct {
	// Retry asks for another attempt, if the policy allows one.
	Retry bool
	// After is the wait the server asked for (Retry-After, RetryInfo); 0
	// means the policy's backoff.
	After time.Duration
	// Reason says why, for OnRetry.
	Reason string
}

// URLError is a URL that cannot be sent at all; retrying cannot help.
type URLError struct {
	// Detail says what is wrong without repeating the URL, whose query may
	// hold a secret.
	Detail string
}

func (e *URLError) Error() string { return "invalid URL: " + e.Detail }

// Do sends x, attempt after attempt while Handle asks for a retry and the
// policy allows one, and returns the number of attempts made. Its error is
// a *URLError when nothing could be sent, or the context's cause when ctx
// ended; everything else went through Handle.
func (c *Client) Do(ctx context.Context, x *Exchange) (int, error) {
	if err := checkURL(x.URL); err != nil {
		return 0, err
	}
	hc := c.HTTP
	if hc == nil {
		hc = defaultClient()
	} else if hc.Transport == nil {
		// Resty would install its own transport in the caller's client;
		// nil means net/http's default, as it always did.
		cp := *hc
		cp.Transport = http.DefaultTransport
		hc = &cp
	}
	sleep := c.Sleep
	if sleep == nil {
		sleep = Sleep
	}
	retries := max(c.Policy.MaxRetries, 0)

	// attempts counts the attempts judged; resty asks the retry condition
	// after every attempt when retries are allowed, and never otherwise.
	attempts := 0
	var last Verdict
	trace := TraceFrom(ctx)
	var sent time.Time
	judge := func(resp *resty.Response, err error) bool {
		var raw *http.Response
		if resp != nil {
			raw = resp.RawResponse
		}
		attempts++
		if trace != nil && trace.Attempt != nil {
			info := AttemptInfo{Method: x.Method, URL: RedactURL(x.URL), Duration: time.Since(sent), Err: err}
			if raw != nil {
				info.Status, info.Err = raw.StatusCode, nil
			}
			trace.Attempt(info)
		}
		if raw != nil {
			defer raw.Body.Close()
			err = nil
		}
		last = x.Handle(raw, err)
		return last.Retry
	}
	rc := newResty(hc).
		SetRetryCount(retries).
		// Resty waits a nanosecond; the hook below does the real wait.
		SetRetryWaitTime(0).
		SetRetryMaxWaitTime(0).
		AddRetryCondition(func(resp *resty.Response, err error) bool {
			if ctx.Err() != nil {
				return false
			}
			return judge(resp, err)
		}).
		AddRetryHook(func(*resty.Response, error) {
			// Resty calls its hooks after the last attempt too, before it
			// notices there are no retries left.
			if attempts > retries || ctx.Err() != nil {
				return
			}
			wait := c.Policy.Delay(attempts, last.After)
			if x.OnRetry != nil {
				x.OnRetry(attempts, wait, last.Reason)
			}
			if trace != nil && trace.Retry != nil {
				trace.Retry(attempts, wait, last.Reason)
			}
			_ = sleep(ctx, wait)
		})
	req := rc.R().SetContext(ctx).SetDoNotParseResponse(true)
	req.Header = x.Header.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	if x.Body != nil {
		req.SetBody(x.Body)
	}
	rc.SetPreRequestHook(func(_ *resty.Client, r *http.Request) error {
		sent = time.Now()
		// net/http ignores a Host header; honour one the caller set.
		if h := r.Header.Get("Host"); h != "" {
			r.Host = h
			r.Header.Del("Host")
		}
		return nil
	})
	resp, err := req.Execute(x.Method, x.URL)
	if ctx.Err() != nil {
		if resp != nil && resp.RawResponse != nil {
			resp.RawResponse.Body.Close()
		}
		return attempts, context.Cause(ctx)
	}
	if retries == 0 {
		judge(resp, err)
	}
	return attempts, nil
}

// newResty returns a resty client over hc that logs nothing (tavo's
// errors are reported once, by the caller) and adds no User-Agent of its
// own: requests without one carry Go's, as before resty.
func newResty(hc *http.Client) *resty.Client {
	rc := resty.NewWithClient(hc).SetLogger(quietLogger{})
	rc.Header.Set("User-Agent", "Go-http-client/1.1")
	return rc
}

// checkURL fails for a URL resty or net/http could not send.
func checkURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return &URLError{Detail: err.Error()}
	}
	if !u.IsAbs() || u.Host == "" {
		return &URLError{Detail: fmt.Sprintf("%q is not an absolute http or https URL", u.Redacted())}
	}
	return nil
}

// defaultClient is built per call rather than kept in a package variable:
// tavo sends few requests per process and holds no global state.
func defaultClient() *http.Client { return NewHTTPClient(ProviderTimeouts) }

// quietLogger drops resty's log lines.
type quietLogger struct{}

func (quietLogger) Errorf(string, ...any) {}
func (quietLogger) Warnf(string, ...any)  {}
func (quietLogger) Debugf(string, ...any) {}
