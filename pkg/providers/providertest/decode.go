package providertest

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// StreamDecoder is a codec's decoder of a streamed answer: it reads the SSE
// body r, passes the deltas to sink, and knows whether the request had
// tools (which changes how some errors are classified).
type StreamDecoder func(r io.Reader, sink providers.Sink, hadTools bool) (*providers.Response, error)

// JSONDecoder is a codec's decoder of a whole (non-streamed) answer.
type JSONDecoder func(r io.Reader, hadTools bool) (*providers.Response, error)

// Classifier is a codec's classifier of an HTTP error answer.
type Classifier func(f *providers.HTTPFailure, hadTools bool) *providers.Error

// DecodeBothWays decodes stream (for a request with tools) read whole and
// read one byte at a time, since a decoder must not depend on how the
// network splits a stream. It fails t when decoding fails and hands each
// response, with the Sink that saw its deltas, to check.
func DecodeBothWays(t *testing.T, decode StreamDecoder, stream string, check func(resp *providers.Response, sink *Sink)) {
	t.Helper()
	for _, r := range []io.Reader{strings.NewReader(stream), iotest.OneByteReader(strings.NewReader(stream))} {
		sink := &Sink{}
		resp, err := decode(r, sink, true)
		if err != nil {
			t.Fatal(err)
		}
		check(resp, sink)
	}
}

// CheckDecoded fails t unless resp has text, given as well by the text
// deltas sink saw, the tool calls calls, and ended for finish.
func CheckDecoded(t *testing.T, resp *providers.Response, sink *Sink, text string, calls []providers.ToolCall, finish providers.FinishReason) {
	t.Helper()
	if resp.Message.Text() != text || strings.Join(sink.Text, "") != text {
		t.Errorf("text %q deltas %q, want %q", resp.Message.Text(), sink.Text, text)
	}
	if !reflect.DeepEqual(resp.Message.ToolCalls(), calls) {
		t.Errorf("calls %+v, want %+v", resp.Message.ToolCalls(), calls)
	}
	if resp.FinishReason != finish {
		t.Errorf("finish %s, want %s", resp.FinishReason, finish)
	}
}

// StreamErrorCase is a stream a decoder must refuse.
type StreamErrorCase struct {
	Name   string
	Stream string
	Code   providers.ErrorCode
	// Contains is a piece of the message the error must carry.
	Contains string
	// Cut says whether the error wraps providers.ErrStreamCut (the stream
	// ended early, so a retry may help).
	Cut bool
}

// DecodeStreamErrors runs each case as a subtest: decoding c.Stream (for a
// request without tools) must fail with a *providers.Error, possibly
// wrapped, of c.Code whose message contains c.Contains, wrapping
// providers.ErrStreamCut exactly when c.Cut.
func DecodeStreamErrors(t *testing.T, decode StreamDecoder, cases []StreamErrorCase) {
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			_, err := decode(strings.NewReader(tt.Stream), &Sink{}, false)
			var pe *providers.Error
			if !errors.As(err, &pe) || pe.Code != tt.Code || !strings.Contains(pe.Message, tt.Contains) {
				t.Fatalf("err = %#v, want %s containing %q", err, tt.Code, tt.Contains)
			}
			if errors.Is(err, providers.ErrStreamCut) != tt.Cut {
				t.Fatalf("ErrStreamCut %v, want %v", !tt.Cut, tt.Cut)
			}
		})
	}
}

// DecodeReadError checks that a read error after the stream head is
// reported as a cut stream that names the read error.
func DecodeReadError(t *testing.T, decode StreamDecoder, head string) {
	r := io.MultiReader(strings.NewReader(head), iotest.ErrReader(errors.New("connection reset by peer")))
	_, err := decode(r, &Sink{}, false)
	if !errors.Is(err, providers.ErrStreamCut) || !strings.Contains(err.Error(), "connection reset by peer") {
		t.Fatalf("err = %v", err)
	}
}

// DecodeJSON decodes body as the answer to a request without tools. With
// code "" it must succeed, and the response is returned; otherwise it must
// fail with a *providers.Error, possibly wrapped, of code whose message
// does not show the body's "<html>", and nil is returned.
func DecodeJSON(t *testing.T, decode JSONDecoder, body string, code providers.ErrorCode) *providers.Response {
	t.Helper()
	resp, err := decode(strings.NewReader(body), false)
	if code != "" {
		var pe *providers.Error
		if !errors.As(err, &pe) || pe.Code != code || strings.Contains(pe.Message, "<html>") {
			t.Fatalf("err = %v, want %s", err, code)
		}
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// ClassifyNonJSONBody checks, for each status, that an HTML error page is
// classified by its status alone (providers.CodeForStatus) and that the
// message shows none of the markup.
func ClassifyNonJSONBody(t *testing.T, classify Classifier, statuses ...int) {
	for _, status := range statuses {
		e := classify(&providers.HTTPFailure{Status: status, Body: []byte("<!DOCTYPE html><title>Error</title>")}, true)
		if strings.Contains(e.Message, "<") || e.Code != providers.CodeForStatus(status) {
			t.Errorf("%d: %s %q", status, e.Code, e.Message)
		}
	}
}

// EncodeRequestErrors checks that encode refuses a message of an unknown
// role, a tool whose schema is broken JSON, and a broken output schema.
func EncodeRequestErrors(t *testing.T, encode func(*providers.Request) ([]byte, error)) {
	for name, req := range map[string]*providers.Request{
		"role":   {Model: "m", Messages: []providers.Message{{Role: "robot"}}},
		"tool":   {Model: "m", Tools: []providers.ToolSpec{{Name: "t", Parameters: []byte("{")}}},
		"schema": {Model: "m", Schema: &providers.OutputSchema{Schema: []byte("{")}},
	} {
		if _, err := encode(req); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
