package providers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/tavo-cli/tavo/pkg/httpx"
)

// Transport sends codec requests over the shared HTTP layer (pkg/httpx) and
// retries failures by the RetryPolicy: 429, 5xx, 529, connection failures
// and timeouts, and streams that broke before any output reached the sink.
// A stream that broke after output was delivered is never retried, since
// the retry would repeat that output.
type Transport struct {
	// Client sends the requests; nil means a client with the timeouts of
	// Timeouts and no overall timeout (the caller's context bounds streams).
	Client *http.Client
	// Timeouts bound each phase of a request when Client is nil; zero
	// fields take httpx.ProviderTimeouts.
	Timeouts httpx.Timeouts
	// Policy is the retry policy; zero fields mean DefaultRetryPolicy's.
	Policy RetryPolicy
	// Sleep waits before a retry and must return early with an error when ctx
	// ends. Nil uses a timer. Tests replace it to record waits instead.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock for Retry-After dates; nil means time.Now.
	Now func() time.Time

	// own is the client made for a nil Client, once, so that every request
	// of a run reuses its connections (one TLS handshake, not one a round).
	ownOnce sync.Once
	own     *http.Client
}

// httpClient returns Client, or the Transport's own client with Timeouts.
func (t *Transport) httpClient() *http.Client {
	if t.Client != nil {
		return t.Client
	}
	t.ownOnce.Do(func() { t.own = httpx.NewHTTPClient(t.Timeouts.Or(httpx.ProviderTimeouts)) })
	return t.own
}

// NewTransport returns the Transport for cfg.
func NewTransport(cfg Config) *Transport {
	return &Transport{Client: cfg.HTTPClient, Timeouts: cfg.Timeouts, Policy: cfg.Retry}
}

// Call is one logical request of a codec: the same bytes are sent on every
// attempt.
type Call struct {
	// URL is the full endpoint, query included.
	URL string
	// Header holds every request header, auth included.
	Header http.Header
	// Body is the JSON request body.
	Body []byte
	// Classify turns a non-2xx answer into an *Error with the provider's own
	// message. Nil classifies by status alone.
	Classify func(f *HTTPFailure) *Error
	// Decode reads a 2xx answer. Deltas it gives sink count as delivered
	// output. Its errors should be *Error; others become provider_error.
	Decode func(resp *http.Response, sink Sink) (*Response, error)
	// Secrets (the API key) are removed from every error message.
	Secrets []string
}

// Do sends call, retrying by the policy, and returns the decoded response or
// an *Error. When ctx ends, the error wraps the context's error.
func (t *Transport) Do(ctx context.Context, call *Call, sink Sink) (*Response, error) {
	if sink == nil {
		sink = DiscardSink{}
	}
	policy := t.Policy.WithDefaults()
	track := &trackingSink{Sink: sink}
	var out *Response
	var last *Error
	client := &httpx.Client{
		HTTP:   t.httpClient(),
		Policy: httpx.Policy{MaxRetries: policy.MaxRetries, BaseDelay: policy.BaseDelay, MaxDelay: policy.MaxDelay},
		Sleep:  t.Sleep,
	}
	attempts, err := client.Do(ctx, &httpx.Exchange{
		Method: http.MethodPost, URL: call.URL, Header: call.Header, Body: call.Body,
		Handle: func(resp *http.Response, err error) httpx.Verdict {
			out, last = t.attempt(call, resp, err, track)
			if last == nil {
				return httpx.Verdict{}
			}
			last.Message = httpx.RedactSecrets(last.Message, call.Secrets...)
			if track.delivered || !Retryable(last) {
				return httpx.Verdict{}
			}
			return httpx.Verdict{Retry: true, After: last.RetryAfter, Reason: last.Error()}
		},
		OnRetry: sink.Retry,
	})
	var ue *httpx.URLError
	switch {
	case errors.As(err, &ue):
		// The URL comes from configuration; say which part is wrong, not
		// the whole URL, which may carry query secrets.
		return nil, &Error{Code: ErrProviderError, Message: "invalid provider URL: " + ue.Detail, Err: ErrPermanent}
	case err != nil || ctx.Err() != nil:
		return nil, cancelled(ctx)
	case last != nil:
		if attempts > 1 {
			last.Message += fmt.Sprintf(" (gave up after %d retries)", attempts-1)
		}
		return nil, last
	}
	return out, nil
}

// attempt judges one answer, or the failure to get one.
func (t *Transport) attempt(call *Call, resp *http.Response, err error, sink Sink) (*Response, *Error) {
	if err != nil {
		host := ""
		if u, perr := url.Parse(call.URL); perr == nil {
			host = u.Host
		}
		msg := fmt.Sprintf("cannot reach %s: %s", host, describeURLError(err))
		var te *httpx.TimeoutError
		if errors.As(err, &te) && te.Phase == httpx.PhaseResponseHeader {
			// The server was reached; it is its answer that is missing.
			msg = fmt.Sprintf("%s: %s", host, te.Error())
		}
		return nil, &Error{
			Code:    ErrProviderError,
			Message: CleanMessage(msg),
			Err:     &networkError{err: unwrapURLError(err)},
		}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, t.failure(call, resp)
	}
	out, derr := call.Decode(resp, sink)
	if derr != nil {
		return nil, AsError(derr)
	}
	return out, nil
}

// failure reads and classifies a non-2xx answer.
func (t *Transport) failure(call *Call, resp *http.Response) *Error {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	f := &HTTPFailure{Status: resp.StatusCode, Header: resp.Header, Body: body}
	var e *Error
	if call.Classify != nil {
		e = call.Classify(f)
	}
	if e == nil {
		e = &Error{Code: CodeForStatus(f.Status), Message: GenericMessage(f.Status)}
	}
	e.Status = f.Status
	now := time.Now
	if t.Now != nil {
		now = t.Now
	}
	// A header's wait wins over one the classifier read from the body (a
	// message's "try again in 1.2s" is rounded; Retry-After is the rule).
	if h := ParseRetryAfter(resp.Header, now()); h > 0 {
		e.RetryAfter = h
	}
	return e
}

// cancelled is the error returned when the caller's context ended.
func cancelled(ctx context.Context) *Error {
	cause := context.Cause(ctx)
	return &Error{Code: ErrProviderError, Message: "request cancelled: " + cause.Error(), Err: cause}
}

// unwrapURLError drops net/http's *url.Error wrapper, whose text repeats the
// full URL.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

func describeURLError(err error) string {
	return unwrapURLError(err).Error()
}

// trackingSink remembers whether any output reached the real sink.
type trackingSink struct {
	Sink
	delivered bool
}

func (s *trackingSink) TextDelta(text string) {
	if text != "" {
		s.delivered = true
	}
	s.Sink.TextDelta(text)
}

func (s *trackingSink) ReasoningDelta(text string) {
	if text != "" {
		s.delivered = true
	}
	s.Sink.ReasoningDelta(text)
}
