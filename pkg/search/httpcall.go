package search

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/tavo-cli/tavo/pkg/httpx"
)

// maxBodyBytes caps an answer read from a search API; real answers are a few
// hundred KiB at most.
const maxBodyBytes = 4 << 20

// caller sends requests to one search API and turns every transport failure
// into a clean *Error.
type caller struct {
	client  *http.Client
	engine  string
	api     string
	key     string
	timeout time.Duration
	// userAgent names tavo to the API; "tavo" unless an engine asks for a
	// more descriptive one.
	userAgent string
}

func newCaller(api API, client *http.Client) *caller {
	if client == nil {
		client = httpx.NewHTTPClient(httpx.WebTimeouts)
	}
	cp := *client
	// A redirect could carry the key header to another host; no search API
	// redirects its JSON endpoint, so one is reported instead of followed.
	cp.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	t := api.Timeout
	if t == 0 {
		t = DefaultTimeout
	}
	return &caller{client: &cp, engine: api.Engine, api: api.Name, key: api.APIKey, timeout: t, userAgent: "tavo"}
}

// answer is a complete HTTP answer.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// do sends req through the shared HTTP layer, under the API's timeout, and
// reads the whole body. Search calls are not retried here: the runner falls
// back to the next API instead. When ctx itself ends, ctx's error is
// returned unchanged.
func (c *caller) do(ctx context.Context, req *http.Request) (*answer, error) {
	tctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, c.fail(CodeUpstream, 0, "the request could not be sent")
		}
		body = b
	}
	header := req.Header.Clone()
	header.Set("User-Agent", c.userAgent)
	var a *answer
	var failure error
	hc := &httpx.Client{HTTP: c.client}
	_, err := hc.Do(tctx, &httpx.Exchange{
		Method: req.Method, URL: req.URL.String(), Header: header, Body: body,
		Handle: func(resp *http.Response, err error) httpx.Verdict {
			a, failure = c.read(ctx, tctx, resp, err)
			return httpx.Verdict{}
		},
	})
	if err != nil {
		return nil, c.transportError(ctx, tctx, err)
	}
	if failure != nil {
		return nil, failure
	}
	return a, nil
}

// read turns one attempt into an answer or a clean error.
func (c *caller) read(ctx, tctx context.Context, resp *http.Response, err error) (*answer, error) {
	if err != nil {
		return nil, c.transportError(ctx, tctx, err)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBodyBytes+1))
	if err != nil {
		return nil, c.transportError(ctx, tctx, err)
	}
	if len(body) > maxBodyBytes {
		return nil, c.fail(CodeUpstream, resp.StatusCode, "the answer is larger than 4 MiB; the API is misbehaving")
	}
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		return nil, c.fail(CodeUpstream, resp.StatusCode, "the API answered with a redirect; check base_url points at the API itself")
	}
	return &answer{status: resp.StatusCode, header: resp.Header, body: body}, nil
}

// fail builds an *Error for this API with a cleaned message.
func (c *caller) fail(code string, status int, msg string) *Error {
	return &Error{Code: code, Engine: c.engine, API: c.api, Status: status, Message: cleanMessage(msg, c.key)}
}

// httpError builds the error for a non-2xx answer: code from the status
// unless the engine knows better, the API's own message when it gave one.
func (c *caller) httpError(a *answer, code, upstreamMsg string) *Error {
	if code == "" {
		code = codeForStatus(a.status)
	}
	msg := cleanMessage(upstreamMsg, c.key)
	if msg == "" {
		msg = hintForCode(code)
	}
	e := &Error{Code: code, Engine: c.engine, API: c.api, Status: a.status, Message: msg}
	if code == CodeRateLimited {
		e.RetryAfter = retryAfter(a.header)
	}
	return e
}

// transportError explains a failure to get an answer without repeating the
// transport's text, which holds the URL.
func (c *caller) transportError(ctx, tctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var te *httpx.TimeoutError
	if errors.As(err, &te) && tctx.Err() == nil {
		return c.fail(CodeTimeout, 0, te.Error())
	}
	var nerr net.Error
	if errors.Is(tctx.Err(), context.DeadlineExceeded) || (errors.As(err, &nerr) && nerr.Timeout()) {
		return c.fail(CodeTimeout, 0, "no answer within "+c.timeout.String())
	}
	var dnsErr *net.DNSError
	var certErr *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var recErr tls.RecordHeaderError
	switch {
	case errors.As(err, &dnsErr):
		return c.fail(CodeUpstream, 0, "could not resolve the API's host name")
	case errors.Is(err, syscall.ECONNREFUSED):
		return c.fail(CodeUpstream, 0, "connection refused; is the API running at the configured address?")
	case errors.As(err, &certErr), errors.As(err, &unknownAuth), errors.As(err, &hostErr), errors.As(err, &recErr):
		return c.fail(CodeUpstream, 0, "TLS handshake failed; check the API's address and certificate")
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF), errors.Is(err, syscall.ECONNRESET):
		return c.fail(CodeUpstream, 0, "the connection closed before the answer was complete")
	default:
		return c.fail(CodeUpstream, 0, "the request could not be sent")
	}
}

// retryAfter reads Retry-After (seconds or an HTTP date) and Brave's
// X-RateLimit-Reset, which lists seconds per window ("1, 1419704"): the wait
// is the reset of the first window whose X-RateLimit-Remaining is 0.
func retryAfter(h http.Header) time.Duration {
	if v := strings.TrimSpace(h.Get("Retry-After")); v != "" {
		if n, err := strconv.Atoi(v); err == nil && n >= 0 {
			return time.Duration(n) * time.Second
		}
		if t, err := http.ParseTime(v); err == nil {
			if d := time.Until(t); d > 0 {
				return d.Round(time.Second)
			}
		}
	}
	resets := splitInts(h.Get("X-RateLimit-Reset"))
	if len(resets) == 0 {
		return 0
	}
	remaining := splitInts(h.Get("X-RateLimit-Remaining"))
	for i, r := range remaining {
		if r == 0 && i < len(resets) {
			return time.Duration(resets[i]) * time.Second
		}
	}
	return time.Duration(resets[0]) * time.Second
}

func splitInts(s string) []int {
	var out []int
	for f := range strings.SplitSeq(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 0 {
			return nil
		}
		out = append(out, n)
	}
	return out
}
