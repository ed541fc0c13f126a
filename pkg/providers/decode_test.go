package providers

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/tavo-cli/tavo/pkg/providers/sse"
)

func TestIsEventStream(t *testing.T) {
	for ct, want := range map[string]bool{
		"text/event-stream":                true,
		"text/event-stream; charset=utf-8": true,
		"  Text/Event-Stream ":             true,
		"application/json":                 false,
		"text/plain":                       false,
		"":                                 false,
	} {
		h := http.Header{}
		if ct != "" {
			h.Set("Content-Type", ct)
		}
		if got := IsEventStream(h); got != want {
			t.Errorf("IsEventStream(%q) = %v, want %v", ct, got, want)
		}
	}
}

func TestReadJSON(t *testing.T) {
	root, err := ReadJSON(strings.NewReader(` {"a":{"b":[1,2]}} `))
	if err != nil || root.Get("a.b.1").Int() != 2 {
		t.Fatalf("ReadJSON = %v, %v", root, err)
	}
	for _, tt := range []struct {
		name, body string
		limit      int64
		want       string
	}{
		{"not JSON", `<html>502</html>`, 100, "the response is not valid JSON"},
		{"cut JSON", `{"a":`, 100, "the response is not valid JSON"},
		{"too large", `{"a":"0123456789"}`, 10, "the response is larger than 10 bytes"},
	} {
		_, err := readJSON(strings.NewReader(tt.body), tt.limit)
		var e *Error
		if !errors.As(err, &e) || e.Code != ErrProviderError || e.Message != tt.want || errors.Is(err, ErrStreamCut) {
			t.Errorf("%s: err = %#v, want %q", tt.name, err, tt.want)
		}
	}
	// A body exactly at the limit is still read.
	if _, err := readJSON(strings.NewReader(`[1,2,3]`), 7); err != nil {
		t.Errorf("body at the limit: %v", err)
	}
}

func TestReadJSONBrokenBodyIsCut(t *testing.T) {
	broken := io.MultiReader(strings.NewReader(`{"a":`), iotest.ErrReader(io.ErrUnexpectedEOF))
	_, err := ReadJSON(broken)
	if !errors.Is(err, ErrStreamCut) || !Retryable(AsError(err)) {
		t.Fatalf("err = %v; want a retryable cut stream", err)
	}
}

// seen is one call of an EachEvent callback.
type seen struct {
	n          int
	name, data string
}

func TestEachEvent(t *testing.T) {
	stream := "event: a\ndata: {\"x\":1}\n\n" +
		": comment\n\n" +
		"data:  \n\n" + // data of one space: an event, skipped once trimmed
		"data:   second  \n\n" +
		"event: stop\ndata: end\n\n" +
		"data: never read\n\n"
	var got []seen
	done, err := EachEvent(strings.NewReader(stream), func(n int, name, data string) (bool, error) {
		got = append(got, seen{n, name, data})
		return name == "stop", nil
	})
	want := []seen{{1, "a", `{"x":1}`}, {3, "", "second"}, {4, "stop", "end"}}
	if err != nil || !done || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("EachEvent = %v, %v, saw %v; want true, nil, %v", done, err, got, want)
	}
}

func TestEachEventEndsWithoutDone(t *testing.T) {
	calls := 0
	done, err := EachEvent(strings.NewReader("data: 1\n\ndata: 2\n\n"), func(int, string, string) (bool, error) {
		calls++
		return false, nil
	})
	if done || err != nil || calls != 2 {
		t.Fatalf("done %v, err %v, calls %d", done, err, calls)
	}
}

func TestEachEventErrors(t *testing.T) {
	stop := errors.New("the codec's own error")
	_, err := EachEvent(strings.NewReader("data: 1\n\ndata: 2\n\n"), func(n int, _, _ string) (bool, error) {
		if n == 2 {
			return false, stop
		}
		return false, nil
	})
	if err != stop {
		t.Fatalf("callback error came back as %v", err)
	}

	broken := io.MultiReader(strings.NewReader("data: 1\n\ndata: 2"), iotest.ErrReader(io.ErrUnexpectedEOF))
	_, err = EachEvent(broken, func(int, string, string) (bool, error) { return false, nil })
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrStreamCut) || !strings.Contains(e.Message, "after 1 events") {
		t.Fatalf("broken stream: err = %v", err)
	}

	big := "data: " + strings.Repeat("x", 64) + "\n\n"
	_, err = eachEvent(sse.NewReaderSize(strings.NewReader("data: 1\n\n"+big), 32), func(int, string, string) (bool, error) { return false, nil })
	if !errors.As(err, &e) || !errors.Is(err, sse.ErrTooLong) || errors.Is(err, ErrStreamCut) || !strings.HasPrefix(e.Message, "stream event 2 is too large") {
		t.Fatalf("oversized event: err = %v", err)
	}
}

func TestEventJSON(t *testing.T) {
	root, err := EventJSON(1, `{"type":"ping"}`)
	if err != nil || root.Get("type").String() != "ping" {
		t.Fatalf("EventJSON = %v, %v", root, err)
	}
	for data, want := range map[string]string{
		`{"type":`: "stream event 7 is not valid JSON (8 bytes)",
		`[1,2]`:    "stream event 7 is JSON but not an object",
		`"text"`:   "stream event 7 is JSON but not an object",
	} {
		_, err := EventJSON(7, data)
		var e *Error
		if !errors.As(err, &e) || e.Code != ErrProviderError || e.Message != want {
			t.Errorf("EventJSON(%q) err = %v, want %q", data, err, want)
		}
	}
}
