package providertest

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// FuzzDecodeStream fuzzes decode (for a request with tools) from the seeds
// already added to f. It must either fail with a *providers.Error that has
// a message, or succeed on input holding one of ends (the markers of a
// complete stream) with text deltas that add up to the message text.
func FuzzDecodeStream(f *testing.F, decode StreamDecoder, ends ...string) {
	f.Fuzz(func(t *testing.T, in []byte) {
		sink := &Sink{}
		resp, err := decode(bytes.NewReader(in), sink, true)
		if err != nil {
			mustHaveMessage(t, err)
			return
		}
		complete := false
		for _, end := range ends {
			complete = complete || bytes.Contains(in, []byte(end))
		}
		if !complete {
			t.Fatalf("accepted a stream without any of %q: %q", ends, in)
		}
		if got := strings.Join(sink.Text, ""); got != resp.Message.Text() {
			t.Fatalf("deltas %q differ from the message text %q", got, resp.Message.Text())
		}
	})
}

// FuzzDecodeJSON fuzzes decode (for a request with tools) from the seeds
// already added to f: it must either fail with a *providers.Error that has
// a message or return an assistant message.
func FuzzDecodeJSON(f *testing.F, decode JSONDecoder) {
	f.Fuzz(func(t *testing.T, in []byte) {
		resp, err := decode(bytes.NewReader(in), true)
		if err != nil {
			mustHaveMessage(t, err)
			return
		}
		if resp == nil || resp.Message.Role != providers.RoleAssistant {
			t.Fatalf("bad response %+v", resp)
		}
	})
}

// mustHaveMessage fails t unless err is (or wraps) a *providers.Error with
// a message to show.
func mustHaveMessage(t *testing.T, err error) {
	t.Helper()
	var pe *providers.Error
	if !errors.As(err, &pe) || pe.Message == "" {
		t.Fatalf("error %v is not a *providers.Error with a message", err)
	}
}

// FuzzClassify fuzzes classify (for a request with tools) from the seeds
// already added to f: every status and body must give an error with a code
// and a message of at most 1000 bytes.
func FuzzClassify(f *testing.F, classify Classifier) {
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		e := classify(&providers.HTTPFailure{Status: status, Body: body}, true)
		if e == nil || e.Code == "" || e.Message == "" || len(e.Message) > 1000 {
			t.Fatalf("classifyHTTP(%d, %q) = %+v", status, body, e)
		}
	})
}
