package httpx

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"sync"
	"sync/atomic"
	"time"
)

// Timeouts bound each phase of one HTTP exchange. A zero field means no
// bound for that phase (the caller's context still applies).
type Timeouts struct {
	// Connect bounds opening the TCP connection (DNS included).
	Connect time.Duration
	// TLSHandshake bounds the TLS handshake.
	TLSHandshake time.Duration
	// ResponseHeader bounds the wait from the request being written to the
	// response headers arriving.
	ResponseHeader time.Duration
	// IdleBody bounds the silence between two reads of the response body
	// that returned bytes: a stream may run as long as it likes, but not
	// stall.
	IdleBody time.Duration
}

// ProviderTimeouts are the defaults for model servers. Connecting and the
// handshake take well under a second on a working network, so 10s only
// catches a dead one. The header wait and the silence between stream bytes
// follow the official OpenAI and Anthropic SDKs, whose read timeout is 10
// minutes: a non-streamed request to a reasoning model may think that long
// before its headers, and a streamed one may send nothing while it reasons.
var ProviderTimeouts = Timeouts{
	Connect:        10 * time.Second,
	TLSHandshake:   10 * time.Second,
	ResponseHeader: 10 * time.Minute,
	IdleBody:       10 * time.Minute,
}

// WebTimeouts are the defaults for fetched pages and search APIs: a web
// server that has not started answering within 30s, or stops for 30s in
// the middle of a page, is not going to finish in time to be useful (both
// engines also bound a whole request).
var WebTimeouts = Timeouts{
	Connect:        10 * time.Second,
	TLSHandshake:   10 * time.Second,
	ResponseHeader: 30 * time.Second,
	IdleBody:       30 * time.Second,
}

// MCPTimeouts are the defaults for MCP servers over HTTP: only the
// connection is bounded here, because a tool call's answer comes when the
// tool is done, and the call's own timeout (tool_timeout) bounds that.
var MCPTimeouts = Timeouts{
	Connect:      10 * time.Second,
	TLSHandshake: 10 * time.Second,
}

// Or returns t with each zero field taken from d.
func (t Timeouts) Or(d Timeouts) Timeouts {
	if t.Connect <= 0 {
		t.Connect = d.Connect
	}
	if t.TLSHandshake <= 0 {
		t.TLSHandshake = d.TLSHandshake
	}
	if t.ResponseHeader <= 0 {
		t.ResponseHeader = d.ResponseHeader
	}
	if t.IdleBody <= 0 {
		t.IdleBody = d.IdleBody
	}
	return t
}

// Phase names the part of an exchange that timed out.
type Phase string

// The phases of an exchange that Timeouts bound.
const (
	PhaseConnect        Phase = "connect"
	PhaseTLSHandshake   Phase = "tls_handshake"
	PhaseResponseHeader Phase = "response_header"
	PhaseIdleBody       Phase = "idle_body"
)

// TimeoutError is a phase that took longer than its bound. It is a
// net.Error whose Timeout is true, so code that treats network timeouts
// alike keeps doing so.
type TimeoutError struct {
	Phase Phase
	Limit time.Duration
	// Err is the transport's own error, when there was one.
	Err error
}

func (e *TimeoutError) Error() string {
	switch e.Phase {
	case PhaseConnect:
		return fmt.Sprintf("could not connect within %s", e.Limit)
	case PhaseTLSHandshake:
		return fmt.Sprintf("the TLS handshake did not finish within %s", e.Limit)
	case PhaseResponseHeader:
		return fmt.Sprintf("the server accepted the request but sent no response within %s", e.Limit)
	default:
		return fmt.Sprintf("the server sent nothing for %s in the middle of its answer", e.Limit)
	}
}

func (e *TimeoutError) Unwrap() error { return e.Err }

// Timeout reports true: this is a timeout.
func (e *TimeoutError) Timeout() bool { return true }

// Temporary reports true, as net.Error asks; a retry may succeed.
func (e *TimeoutError) Temporary() bool { return true }

// NewTransport returns an *http.Transport with the connect, TLS and
// response-header bounds of t, otherwise like http.DefaultTransport
// (proxies from the environment, HTTP/2, keep-alive).
func NewTransport(t Timeouts) *http.Transport {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	dialer := &net.Dialer{Timeout: t.Connect, KeepAlive: 30 * time.Second}
	tr.DialContext = dialer.DialContext
	tr.TLSHandshakeTimeout = t.TLSHandshake
	tr.ResponseHeaderTimeout = t.ResponseHeader
	return tr
}

// NewHTTPClient returns a client over NewTransport(t) whose errors name the
// phase that timed out and whose response bodies fail with a *TimeoutError
// after t.IdleBody without a byte. It has no overall timeout: streams may
// be long, and the caller's context bounds them.
func NewHTTPClient(t Timeouts) *http.Client {
	return &http.Client{Transport: WithTimeouts(NewTransport(t), t)}
}

// WithTimeouts wraps base, whose own bounds should be those of t (see
// NewTransport), so that its timeouts are reported as *TimeoutError and
// response bodies are bounded by t.IdleBody. Tests wrap a transport of
// their own this way.
func WithTimeouts(base http.RoundTripper, t Timeouts) http.RoundTripper {
	return &phaseTransport{base: base, t: t}
}

// phaseTransport names timed-out phases and bounds body silence.
type phaseTransport struct {
	base http.RoundTripper
	t    Timeouts
}

func (p *phaseTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancelCause(req.Context())
	// The trace tells which phase a timeout hit; net/http's own errors
	// say so only in their text.
	var wrote, tlsStarted, connected atomic.Bool
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GotConn: func(httptrace.GotConnInfo) { connected.Store(true) },
		ConnectDone: func(_, _ string, err error) {
			if err == nil {
				connected.Store(true)
			}
		},
		TLSHandshakeStart: func() { tlsStarted.Store(true) },
		WroteRequest:      func(httptrace.WroteRequestInfo) { wrote.Store(true) },
	})
	resp, err := p.base.RoundTrip(req.WithContext(ctx))
	if err != nil {
		cancel(nil)
		var ne net.Error
		if req.Context().Err() == nil && errors.As(err, &ne) && ne.Timeout() {
			switch {
			case wrote.Load():
				return nil, &TimeoutError{Phase: PhaseResponseHeader, Limit: p.t.ResponseHeader, Err: err}
			case tlsStarted.Load():
				return nil, &TimeoutError{Phase: PhaseTLSHandshake, Limit: p.t.TLSHandshake, Err: err}
			case !connected.Load():
				return nil, &TimeoutError{Phase: PhaseConnect, Limit: p.t.Connect, Err: err}
			}
		}
		return nil, err
	}
	if p.t.IdleBody > 0 {
		resp.Body = newIdleBody(resp.Body, p.t.IdleBody, cancel)
	} else {
		resp.Body = &cancelBody{ReadCloser: resp.Body, cancel: cancel}
	}
	return resp, nil
}

// cancelBody releases the request's context when the body is closed.
type cancelBody struct {
	io.ReadCloser
	cancel context.CancelCauseFunc
}

func (b *cancelBody) Close() error {
	err := b.ReadCloser.Close()
	b.cancel(nil)
	return err
}

// idleBody fails a read with a *TimeoutError once gap has passed since the
// body was opened or last gave bytes. The bound is enforced by cancelling
// the request's context, which unblocks a read stuck on the connection
// (for HTTP/1 and HTTP/2 alike).
type idleBody struct {
	rc     io.ReadCloser
	gap    time.Duration
	cancel context.CancelCauseFunc
	timer  *time.Timer
	fired  atomic.Bool
	once   sync.Once
}

func newIdleBody(rc io.ReadCloser, gap time.Duration, cancel context.CancelCauseFunc) *idleBody {
	b := &idleBody{rc: rc, gap: gap, cancel: cancel}
	b.timer = time.AfterFunc(gap, func() {
		b.fired.Store(true)
		cancel(b.err())
	})
	return b
}

func (b *idleBody) err() error { return &TimeoutError{Phase: PhaseIdleBody, Limit: b.gap} }

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if b.fired.Load() {
		if err == nil || !errors.Is(err, io.EOF) {
			return n, b.err()
		}
		return n, err
	}
	if n > 0 {
		b.timer.Reset(b.gap)
	}
	return n, err
}

func (b *idleBody) Close() error {
	b.once.Do(func() { b.timer.Stop() })
	err := b.rc.Close()
	b.cancel(nil)
	return err
}
