package providers

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/httpx/httpxtest"

	"github.com/tavo-cli/tavo/pkg/httpx"
)

// tinyTimeouts make a stalled server fail fast; the servers below stall for
// good, so the tests do not depend on the machine's speed.
var tinyTimeouts = httpx.Timeouts{Connect: time.Second, TLSHandshake: time.Second, ResponseHeader: 30 * time.Millisecond, IdleBody: 30 * time.Millisecond}

// idleOnly bounds only the silence inside a body, so that a slow machine
// cannot turn a stall test into a header timeout.
var idleOnly = httpx.Timeouts{IdleBody: 30 * time.Millisecond}

// mute accepts connections and never answers, like a model server that
// hangs before its first byte.
func mute(t *testing.T) (string, func() int) {
	t.Helper()
	srv := httpxtest.NewSilent(t)
	return srv.URL + "/v1/chat/completions", srv.Accepted
}

func TestTransportServerNeverAnswers(t *testing.T) {
	url, accepted := mute(t)
	tr, slept := newTestTransport(RetryPolicy{MaxRetries: 2, BaseDelay: time.Millisecond})
	tr.Timeouts = tinyTimeouts
	sink := &recSink{}
	_, err := tr.Do(context.Background(), &Call{URL: url, Body: []byte("{}"), Decode: textDecode}, sink)
	pe := AsError(err)
	if pe.Code != ErrProviderError || !strings.Contains(pe.Message, "sent no response within 30ms") || !strings.Contains(pe.Message, "gave up after 2 retries") {
		t.Fatalf("err = %v", err)
	}
	var te *httpx.TimeoutError
	if !errors.As(err, &te) || te.Phase != httpx.PhaseResponseHeader {
		t.Fatalf("err %v does not wrap the response-header timeout", err)
	}
	if len(*slept) != 2 || len(sink.retries) != 2 || accepted() != 3 {
		t.Fatalf("slept %v, retries %v, %d connections", *slept, sink.retries, accepted())
	}
}

// stall sends headers and the given body, then nothing more.
func stall(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, body)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}
}

// lineDecode hands each line to the sink as it comes, as the SSE decoders
// do, and reports a failed read as a cut stream.
func lineDecode(resp *http.Response, sink Sink) (*Response, error) {
	buf := make([]byte, 64)
	for {
		n, err := resp.Body.Read(buf)
		sink.TextDelta(string(buf[:n]))
		if err == io.EOF {
			return &Response{}, nil
		}
		if err != nil {
			return nil, StreamCut("while reading", err)
		}
	}
}

func TestTransportStreamStalls(t *testing.T) {
	t.Run("after output: fails, not retried", func(t *testing.T) {
		srv, s := serve(t, stall("Hel"), status(200, "never"))
		tr, _ := newTestTransport(RetryPolicy{})
		tr.Timeouts = idleOnly
		sink := &recSink{}
		_, err := tr.Do(context.Background(), &Call{URL: srv.URL, Decode: lineDecode}, sink)
		pe := AsError(err)
		if pe.Code != ErrProviderError || !strings.Contains(pe.Message, "sent nothing for 30ms") || !errors.Is(err, ErrStreamCut) {
			t.Fatalf("err = %v", err)
		}
		if s.count() != 1 || sink.text.String() != "Hel" {
			t.Fatalf("%d requests, text %q", s.count(), sink.text.String())
		}
	})
	t.Run("before output: retried", func(t *testing.T) {
		srv, s := serve(t, stall(""), status(200, "whole"))
		tr, _ := newTestTransport(RetryPolicy{})
		tr.Timeouts = idleOnly
		sink := &recSink{}
		_, err := tr.Do(context.Background(), &Call{URL: srv.URL, Decode: lineDecode}, sink)
		if err != nil || s.count() != 2 || sink.text.String() != "whole" || len(sink.retries) != 1 {
			t.Fatalf("err %v, %d requests, text %q, retries %v", err, s.count(), sink.text.String(), sink.retries)
		}
	})
}
