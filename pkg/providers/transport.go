package providers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// Transport sends codec requests over HTTP and retries failures by the
// RetryPolicy: 429, 5xx, 529, connection failures, and streams that broke
// before any output reached the sink. A stream that broke after output was
// delivered is never retried, since the retry would repeat that output.
//
// It is a small loop over net/http rather than resty: streamed answers must be
// handed to the codec unread, retries must be announced to the Sink before
// the wait, and the wait must be replaceable in tests, all of which resty's
// retry machinery would have to be bent around.
type Transport struct {
	// Client sends the requests; nil means a client without an overall
	// timeout (the caller's context bounds long streams).
	Client *http.Client
	// Policy is the retry policy; zero fields mean DefaultRetryPolicy's.
	Policy RetryPolicy
	// Sleep waits before a retry and must return early with an error when ctx
	// ends. Nil uses a timer. Tests replace it to record waits instead.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock for Retry-After dates; nil means time.Now.
	Now func() time.Time
}

// NewTransport returns the Transport for cfg.
func NewTransport(cfg Config) *Transport {
	return &Transport{Client: cfg.HTTPClient, Policy: cfg.Retry}
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
	for attempt := 0; ; attempt++ {
		resp, err := t.attempt(ctx, call, track)
		if err == nil {
			return resp, nil
		}
		if ctx.Err() != nil {
			return nil, cancelled(ctx)
		}
		err.Message = redact(err.Message, call.Secrets)
		if track.delivered || !Retryable(err) || policy.MaxRetries < 0 || attempt >= policy.MaxRetries {
			if attempt > 0 {
				err.Message += fmt.Sprintf(" (gave up after %d retries)", attempt)
			}
			return nil, err
		}
		wait := policy.Delay(attempt+1, err.RetryAfter)
		sink.Retry(attempt+1, wait, err.Error())
		if serr := t.sleep(ctx, wait); serr != nil {
			return nil, cancelled(ctx)
		}
	}
}

// attempt sends the request once.
func (t *Transport) attempt(ctx context.Context, call *Call, sink Sink) (*Response, *Error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, call.URL, bytes.NewReader(call.Body))
	if err != nil {
		// The URL comes from configuration; say which part is wrong, not the
		// whole URL, which may carry query secrets.
		return nil, &Error{Code: ErrProviderError, Message: "invalid provider URL: " + describeURLError(err), Err: ErrPermanent}
	}
	for k, v := range call.Header {
		req.Header[k] = append([]string(nil), v...)
	}
	client := t.Client
	if client == nil {
		client = defaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, &Error{
			Code:    ErrProviderError,
			Message: CleanMessage(fmt.Sprintf("cannot reach %s: %s", req.URL.Host, describeURLError(err))),
			Err:     &networkError{err: unwrapURLError(err)},
		}
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, t.failure(call, resp)
	}
	out, err := call.Decode(resp, sink)
	if err != nil {
		return nil, AsError(err)
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
	if e.RetryAfter == 0 {
		now := time.Now
		if t.Now != nil {
			now = t.Now
		}
		e.RetryAfter = ParseRetryAfter(resp.Header, now())
	}
	return e
}

func (t *Transport) sleep(ctx context.Context, d time.Duration) error {
	if t.Sleep != nil {
		return t.Sleep(ctx, d)
	}
	return sleepContext(ctx, d)
}

// defaultClient has no overall timeout: streams can run for many minutes and
// the run's context bounds them. Redirects are followed as net/http does.
var defaultClient = &http.Client{}

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
