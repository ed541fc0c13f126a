package providers

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
)

// exchangeLog records which of an Exchange's functions ran, and with what.
type exchangeLog struct {
	encoded, classified, streamed, whole int
	hadTools                             []bool
}

// exchange returns an Exchange for url whose functions record into log:
// both decoders read the body as the answer's text.
func exchange(url string, log *exchangeLog) *Exchange {
	decode := func(r io.Reader) (*Response, error) {
		b, err := io.ReadAll(r)
		if err != nil {
			return nil, StreamCut("while reading", err)
		}
		return &Response{Message: Message{Role: RoleAssistant, Parts: []Part{{Type: PartText, Text: string(b)}}}}, nil
	}
	return &Exchange{
		URL:    url,
		Header: http.Header{"X-Test": {"1"}},
		Secret: "sk-SECRET-42",
		Encode: func(req *Request) ([]byte, error) {
			log.encoded++
			return []byte(`{"model":"` + req.Model + `"}`), nil
		},
		Classify: func(f *HTTPFailure, hadTools bool) *Error {
			log.classified++
			log.hadTools = append(log.hadTools, hadTools)
			return &Error{Code: ErrAuthFailed, Message: "server said: " + string(f.Body), Err: ErrPermanent}
		},
		DecodeStream: func(r io.Reader, sink Sink, hadTools bool) (*Response, error) {
			log.streamed++
			log.hadTools = append(log.hadTools, hadTools)
			return decode(r)
		},
		DecodeJSON: func(r io.Reader, hadTools bool) (*Response, error) {
			log.whole++
			log.hadTools = append(log.hadTools, hadTools)
			return decode(r)
		},
	}
}

func TestTransportCompleteChoosesTheDecoder(t *testing.T) {
	for _, tt := range []struct {
		name         string
		stream       bool
		contentType  string
		wantStreamed bool
	}{
		{"streamed request, SSE answer", true, "text/event-stream; charset=utf-8", true},
		{"streamed request, JSON answer (stream ignored)", true, "application/json", false},
		{"whole request, SSE content type", false, "text/event-stream", false},
		{"whole request, JSON answer", false, "application/json", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var gotHeader http.Header
			var gotBody string
			srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
				gotHeader = r.Header.Clone()
				b, _ := io.ReadAll(r.Body)
				gotBody = string(b)
				w.Header().Set("Content-Type", tt.contentType)
				io.WriteString(w, "answer")
			})
			tr, _ := newTestTransport(RetryPolicy{})
			var log exchangeLog
			req := &Request{Model: "m1", Stream: tt.stream, Tools: []ToolSpec{{Name: "f"}}}
			resp, err := tr.Complete(context.Background(), exchange(srv.URL, &log), req, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := resp.Message.Parts[0].Text; got != "answer" {
				t.Fatalf("text %q", got)
			}
			if (log.streamed == 1) != tt.wantStreamed || log.streamed+log.whole != 1 {
				t.Fatalf("streamed %d, whole %d; want streamed %v", log.streamed, log.whole, tt.wantStreamed)
			}
			if len(log.hadTools) != 1 || !log.hadTools[0] {
				t.Fatalf("hadTools %v, want [true]", log.hadTools)
			}
			if gotBody != `{"model":"m1"}` || gotHeader.Get("X-Test") != "1" {
				t.Fatalf("sent body %q, header %v", gotBody, gotHeader)
			}
		})
	}
}

func TestTransportCompleteStopsBeforeSending(t *testing.T) {
	encodeErr := errors.New("tool \"f\" has a bad schema")
	for _, tt := range []struct {
		name     string
		mutate   func(x *Exchange)
		want     string
		wantPerm bool
		wantWrap error
	}{
		{"configuration error", func(x *Exchange) { x.Err = errors.New("the base URL is wrong") }, "the base URL is wrong", true, ErrPermanent},
		{"encoding error", func(x *Exchange) {
			x.Encode = func(*Request) ([]byte, error) { return nil, encodeErr }
		}, "cannot encode the request: tool \"f\" has a bad schema", false, encodeErr},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv, s := serve(t, status(200, "never"))
			tr, _ := newTestTransport(RetryPolicy{})
			var log exchangeLog
			x := exchange(srv.URL, &log)
			tt.mutate(x)
			_, err := tr.Complete(context.Background(), x, &Request{Model: "m"}, nil)
			var e *Error
			if !errors.As(err, &e) || e.Code != ErrProviderError || e.Message != tt.want {
				t.Fatalf("err = %#v", err)
			}
			if !errors.Is(err, tt.wantWrap) || errors.Is(err, ErrPermanent) != tt.wantPerm {
				t.Fatalf("err %v: wraps %v %v, permanent %v", err, tt.wantWrap, errors.Is(err, tt.wantWrap), errors.Is(err, ErrPermanent))
			}
			if s.count() != 0 {
				t.Fatalf("%d requests sent", s.count())
			}
		})
	}
}

func TestTransportCompleteClassifiesAndRedacts(t *testing.T) {
	srv, _ := serve(t, status(401, "bad key sk-SECRET-42"))
	tr, _ := newTestTransport(RetryPolicy{})
	var log exchangeLog
	_, err := tr.Complete(context.Background(), exchange(srv.URL, &log), &Request{Model: "m"}, nil)
	var e *Error
	if !errors.As(err, &e) || e.Code != ErrAuthFailed || e.Status != 401 {
		t.Fatalf("err = %#v", err)
	}
	if strings.Contains(e.Message, "SECRET") || !strings.Contains(e.Message, "server said: bad key [redacted]") {
		t.Fatalf("message %q", e.Message)
	}
	if log.classified != 1 || len(log.hadTools) != 1 || log.hadTools[0] {
		t.Fatalf("classified %d, hadTools %v; want once, [false]", log.classified, log.hadTools)
	}
}

func TestTransportCompleteWithoutClassifier(t *testing.T) {
	srv, _ := serve(t, status(403, "<html>forbidden</html>"))
	tr, _ := newTestTransport(RetryPolicy{})
	var log exchangeLog
	x := exchange(srv.URL, &log)
	x.Classify = nil
	_, err := tr.Complete(context.Background(), x, &Request{Model: "m"}, nil)
	var e *Error
	if !errors.As(err, &e) || e.Code != ErrAuthFailed || e.Message != GenericMessage(403) {
		t.Fatalf("err = %#v", err)
	}
}
