package fake

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// Server is a scripted fake provider on 127.0.0.1. Each request consumes the
// next queued Reply; with none left it answers 500 with a message saying so.
type Server struct {
	// URL is the base URL to configure a codec with (no trailing slash, no
	// path: codecs append /chat/completions and the like).
	URL string

	srv  *httptest.Server
	done chan struct{}

	mu       sync.Mutex
	queue    []Reply
	requests []Request
	record   io.Writer
	validate bool
	routes   bool
	schemas  map[providers.Protocol]*jsonschema.Schema
	fields   map[providers.Protocol]map[string]bool
	closed   bool
}

// NewServer starts a fake provider. When tb is not nil the server is closed
// when the test ends. It is strict, as the real APIs are: bodies are
// checked against the official schema (ValidateRequests), and path, method
// and key against the protocol (CheckRoutes).
func NewServer(tb testing.TB) *Server {
	s := &Server{
		done: make(chan struct{}), validate: true, routes: true,
		schemas: map[providers.Protocol]*jsonschema.Schema{}, fields: map[providers.Protocol]map[string]bool{},
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	if tb != nil {
		tb.Cleanup(s.Close)
	}
	return s
}

// Enqueue adds replies for the next requests, in order.
func (s *Server) Enqueue(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, replies...)
}

// Pending returns how many queued replies no request has consumed yet.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue)
}

// Requests returns every request received so far, oldest first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// RecordTo writes every later request to w as one JSON line (NDJSON).
func (s *Server) RecordTo(w io.Writer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.record = w
}

// ValidateRequests says whether the server checks every request body
// against the official schema of its protocol (on by default) and answers
// 400 in the provider's error envelope when it does not match, as the real
// API would refuse it: unknown fields included, which OpenAI refuses at the
// top level and Gemini at every depth. A refused request is recorded but
// does not consume a queued reply.
func (s *Server) ValidateRequests(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.validate = on
}

// CheckRoutes says whether the server refuses, as the API would and before
// reading the body, a request to a path or with a method its protocol does
// not have (404) or without the protocol's key (401: Authorization Bearer,
// x-api-key with anthropic-version; Gemini 403: x-goog-api-key or ?key=).
// On by default. A refused request is recorded but consumes no reply.
func (s *Server) CheckRoutes(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.routes = on
}

// Lax turns off every check (ValidateRequests and CheckRoutes), for tests
// that stand in for a server other than the four APIs (an OpenAI-compatible
// local server without keys).
func (s *Server) Lax() {
	s.ValidateRequests(false)
	s.CheckRoutes(false)
}

// Close stops the server, ending hanging and delayed replies first.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	close(s.done)
	s.mu.Unlock()
	s.srv.Close()
}

// serve answers one request.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	req := Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header.Clone(), Body: body}

	s.mu.Lock()
	s.requests = append(s.requests, req)
	seq := len(s.requests)
	if s.record != nil {
		line, _ := json.Marshal(req)
		s.record.Write(append(line, '\n'))
	}
	protocol := protocolForPath(r.URL.Path)
	if len(s.queue) > 0 && s.queue[0].Protocol != "" {
		protocol = s.queue[0].Protocol
	}
	validate, routes := s.validate, s.routes
	s.mu.Unlock()

	if isModelList(r) {
		s.serveModels(w, r)
		return
	}

	// A request the real API would refuse leaves the queue alone: the
	// scripted reply was meant for a valid one.
	if routes {
		if status, e := checkRoute(protocolForPath(r.URL.Path), r); e != nil {
			s.refuse(w, protocol, seq, status, e)
			return
		}
	}
	if validate {
		e, err := s.validateBody(protocol, body)
		if err != nil {
			s.fail(w, http.StatusInternalServerError, "fake provider: "+err.Error())
			return
		}
		if e != nil {
			s.refuse(w, protocol, seq, http.StatusBadRequest, e)
			return
		}
	}
	s.mu.Lock()
	var reply *Reply
	if len(s.queue) > 0 {
		reply = &s.queue[0]
		s.queue = s.queue[1:]
	}
	s.mu.Unlock()
	if reply == nil {
		s.fail(w, http.StatusInternalServerError, fmt.Sprintf("fake provider: no scripted reply left for request %d (%s %s)", seq, r.Method, r.URL.Path))
		return
	}
	if reply.Protocol != "" {
		protocol = reply.Protocol
	}
	if !s.wait(r.Context(), time.Duration(reply.Delay)) {
		return
	}
	if err := s.reply(w, r, seq, protocol, reply, body); err != nil {
		s.fail(w, http.StatusInternalServerError, "fake provider: "+err.Error())
	}
}

// reply serves one scripted Reply.
func (s *Server) reply(w http.ResponseWriter, r *http.Request, seq int, protocol providers.Protocol, reply *Reply, body []byte) error {
	if reply.Fixture != "" || reply.Raw != "" {
		return serveRecorded(w, reply)
	}
	info := parseRequestInfo(seq, r.URL.Path, body)
	rend := newRenderer(protocol, info, reply.Model)
	for k, v := range reply.Headers {
		w.Header().Set(k, v)
	}
	if ha, ok := rend.(headerAdapter); ok {
		ha.adaptHeaders(w.Header())
	}
	status := reply.Status
	if status == http.StatusTooManyRequests && reply.Body == "" {
		e := rateLimitDefaults(protocol, w.Header(), reply.Error, seq)
		reply = &Reply{Status: status, Error: e}
	}
	if status >= 400 || reply.Error != nil || reply.Body != "" {
		if status == 0 {
			status = http.StatusOK
			if reply.Error != nil {
				status = http.StatusInternalServerError
			}
		}
		out := []byte(reply.Body)
		if reply.Body == "" {
			if rend == nil {
				return fmt.Errorf("cannot render an error envelope for protocol %q", protocol)
			}
			e := reply.Error
			if e == nil {
				e = &APIError{Message: http.StatusText(status)}
			}
			out = rend.errorBody(e, status)
		}
		if w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(status)
		w.Write(out)
		return nil
	}
	if rend == nil {
		return fmt.Errorf("protocol %q cannot be rendered yet; use a fixture or a body", protocol)
	}
	if status == 0 {
		status = http.StatusOK
	}
	stream := info.stream
	if reply.Stream != nil {
		stream = *reply.Stream
	}
	if stream {
		s.stream(w, r, rend, reply, status)
		return nil
	}
	steps := reply.steps()
	for _, st := range steps {
		if !s.wait(r.Context(), time.Duration(st.Delay)) {
			return nil
		}
		if st.Hang {
			s.hang(r.Context())
			return nil
		}
		if st.Cut {
			cut(w, false)
			return nil
		}
	}
	code, out := rend.whole(steps)
	if code == http.StatusOK {
		code = status
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(out)
	return nil
}

// stream writes the steps as a stream, flushing after each one.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, rend renderer, reply *Reply, status int) {
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", rend.streamContentType())
	w.Header().Set("Cache-Control", "no-cache")
	steps := reply.steps()
	if p, ok := rend.(planner); ok {
		p.plan(steps)
	}
	w.WriteHeader(status)
	w.Write(rend.streamStart())
	rc.Flush()
	for _, st := range steps {
		if !s.wait(r.Context(), time.Duration(st.Delay)) {
			return
		}
		if st.Hang {
			s.hang(r.Context())
			return
		}
		if st.Cut {
			cut(w, true)
			return
		}
		if st.Raw != "" {
			io.WriteString(w, st.Raw)
		}
		if _, err := w.Write(rend.streamStep(st)); err != nil {
			return
		}
		rc.Flush()
	}
	w.Write(rend.streamEnd(reply.NoDone))
	rc.Flush()
}

// serveRecorded replays a fixture byte for byte.
func serveRecorded(w http.ResponseWriter, reply *Reply) error {
	data := []byte(reply.Raw)
	if reply.Raw == "" {
		var err error
		if data, err = readFixture(reply.Fixture); err != nil {
			return err
		}
	}
	rec, err := ParseHTTP(data)
	if err != nil {
		return err
	}
	for k, v := range rec.Header {
		w.Header()[k] = v
	}
	for k, v := range reply.Headers {
		w.Header().Set(k, v)
	}
	w.WriteHeader(rec.Status)
	w.Write(rec.Body)
	return nil
}

// refuse answers status with e in protocol's own error envelope.
func (s *Server) refuse(w http.ResponseWriter, protocol providers.Protocol, seq, status int, e *APIError) {
	rend := newRenderer(protocol, requestInfo{seq: seq}, "")
	if rend == nil {
		s.fail(w, status, "fake provider: "+e.Message)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(rend.errorBody(e, status))
}

// fail answers with an OpenAI-style error envelope, which every codec's
// error reader understands well enough to show the message.
func (s *Server) fail(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(mustJSON(oaErrorEnvelope{Error: oaError{Message: msg, Type: "fake_provider_error"}}))
}

// wait sleeps d; it reports false when the client left or the server closed.
func (s *Server) wait(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
	case <-s.done:
	}
	return false
}

// hang waits until the client goes away or the server closes.
func (s *Server) hang(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-s.done:
	}
}

// cut drops the connection without finishing the response, as a network
// failure or a crashed server would.
// flush sends what was written first; without it nothing, not even the
// status line, reaches the client.
func cut(w http.ResponseWriter, flush bool) {
	rc := http.NewResponseController(w)
	if flush {
		rc.Flush()
	}
	conn, _, err := rc.Hijack()
	if err != nil {
		// Not hijackable (HTTP/2): aborting the handler resets the stream.
		panic(http.ErrAbortHandler)
	}
	conn.Close()
}
