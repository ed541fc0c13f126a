package providers

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/tavo-cli/tavo/pkg/providers/sse"
)

// maxJSONResponse bounds a non-streamed answer; real ones are kilobytes.
const maxJSONResponse = 64 << 20

// IsEventStream reports whether h says the body is Server-Sent Events.
// Codecs read anything else as one JSON document, since some servers ignore
// "stream" or answer an error as JSON with status 200.
func IsEventStream(h http.Header) bool {
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(h.Get("Content-Type"))), "text/event-stream")
}

// ReadJSON reads and parses a whole non-streamed answer. Errors are *Error:
// a failed read is a cut stream, which may be retried; an answer over 64 MiB
// or not valid JSON is a provider_error.
func ReadJSON(r io.Reader) (gjson.Result, error) {
	return readJSON(r, maxJSONResponse)
}

// readJSON is ReadJSON with the size limit given, so tests need not send
// 64 MiB.
func readJSON(r io.Reader, limit int64) (gjson.Result, error) {
	body, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return gjson.Result{}, StreamCut("while reading the response", err)
	}
	if int64(len(body)) > limit {
		return gjson.Result{}, &Error{Code: ErrProviderError, Message: fmt.Sprintf("the response is larger than %d bytes", limit)}
	}
	if !gjson.ValidBytes(body) {
		return gjson.Result{}, &Error{Code: ErrProviderError, Message: "the response is not valid JSON"}
	}
	return gjson.ParseBytes(body), nil
}

// EachEvent reads the SSE stream r and calls fn for each event that carries
// data, with the event's position n (from 1, counting every event, for error
// messages), its name and its data trimmed of surrounding space. It stops
// when fn reports done or fails, or at the end of the stream, and reports
// whether fn said done: what ends a whole answer is the codec's business.
// An event too large for the SSE reader is a provider_error; a broken stream
// is a cut stream (ErrStreamCut), which may be retried.
func EachEvent(r io.Reader, fn func(n int, name, data string) (done bool, err error)) (done bool, err error) {
	return eachEvent(sse.NewReader(r), fn)
}

// eachEvent is EachEvent over a given SSE reader, so tests can set its size
// limit.
func eachEvent(events *sse.Reader, fn func(n int, name, data string) (done bool, err error)) (done bool, err error) {
	for n := 1; !done; n++ {
		ev, err := events.Next()
		if err == io.EOF {
			break
		}
		if errors.Is(err, sse.ErrTooLong) {
			return false, &Error{Code: ErrProviderError, Message: fmt.Sprintf("stream event %d is too large: %v", n, err), Err: err}
		}
		if err != nil {
			return false, StreamCut(fmt.Sprintf("after %d events", n-1), err)
		}
		data := strings.TrimSpace(ev.Data)
		if data == "" {
			continue
		}
		if done, err = fn(n, ev.Name, data); err != nil {
			return done, err
		}
	}
	return done, nil
}

// EventJSON parses the data of stream event n, which every protocol sends as
// a JSON object. Errors are *Error and say which event was wrong.
func EventJSON(n int, data string) (gjson.Result, error) {
	if !gjson.Valid(data) {
		return gjson.Result{}, &Error{Code: ErrProviderError, Message: fmt.Sprintf("stream event %d is not valid JSON (%d bytes)", n, len(data))}
	}
	root := gjson.Parse(data)
	if !root.IsObject() {
		return gjson.Result{}, &Error{Code: ErrProviderError, Message: fmt.Sprintf("stream event %d is JSON but not an object", n)}
	}
	return root, nil
}

// DiscardSink drops everything it is given: it lets a decoder written for
// streams also read a whole answer, which has no deltas to show.
type DiscardSink struct{}

// TextDelta does nothing.
func (DiscardSink) TextDelta(string) {}

// ReasoningDelta does nothing.
func (DiscardSink) ReasoningDelta(string) {}

// Retry does nothing.
func (DiscardSink) Retry(int, time.Duration, string) {}
