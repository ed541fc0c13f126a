package sse

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

func readAll(t testing.TB, r *Reader) ([]Event, error) {
	t.Helper()
	var evs []Event
	for i := 0; i < 1_000_000; i++ {
		ev, err := r.Next()
		if err != nil {
			return evs, err
		}
		evs = append(evs, ev)
	}
	t.Fatal("reader never ended")
	return nil, nil
}

func TestReaderFraming(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Event
	}{
		{"lf", "data: a\n\ndata: b\n\n", []Event{{Data: "a"}, {Data: "b"}}},
		{"crlf", "data: a\r\n\r\ndata: b\r\n\r\n", []Event{{Data: "a"}, {Data: "b"}}},
		{"cr", "data: a\r\rdata: b\r\r", []Event{{Data: "a"}, {Data: "b"}}},
		{"mixed", "data: a\r\n\ndata: b\r\rdata: c\n\r\n", []Event{{Data: "a"}, {Data: "b"}, {Data: "c"}}},
		{"multi-line data", "data: one\ndata: two\ndata:three\n\n", []Event{{Data: "one\ntwo\nthree"}}},
		{"named", "event: ping\ndata: {}\n\nevent: message_stop\ndata: {\"type\":\"x\"}\n\n",
			[]Event{{Name: "ping", Data: "{}"}, {Name: "message_stop", Data: `{"type":"x"}`}}},
		{"comments ignored", ": keep-alive\n\n:another\ndata: x\n\n", []Event{{Data: "x"}}},
		{"id carries over", "id: 1\ndata: a\n\ndata: b\n\nid: 2\ndata: c\n\n",
			[]Event{{Data: "a", ID: "1"}, {Data: "b", ID: "1"}, {Data: "c", ID: "2"}}},
		{"final event without blank line", "data: a\n\ndata: last", []Event{{Data: "a"}, {Data: "last"}}},
		{"final event with one newline", "data: last\n", []Event{{Data: "last"}}},
		{"no data no event", "event: ping\n\nretry: 10\n\n", nil},
		{"empty data field", "data\n\ndata:\n\n", []Event{{Data: ""}, {Data: ""}}},
		{"only one space stripped", "data:  two\n\n", []Event{{Data: " two"}}},
		{"colon in value", "data: {\"a\":\"b:c\"}\n\n", []Event{{Data: `{"a":"b:c"}`}}},
		{"bom", "\xef\xbb\xbfdata: a\n\n", []Event{{Data: "a"}}},
		{"name reset after dispatch", "event: x\ndata: 1\n\ndata: 2\n\n", []Event{{Name: "x", Data: "1"}, {Data: "2"}}},
		{"empty", "", nil},
		{"blank lines only", "\n\n\r\n\r", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Feed the stream whole and one byte at a time: framing must not
			// depend on how the network splits it (a CRLF split in two, above all).
			for _, src := range []io.Reader{strings.NewReader(tt.in), iotest.OneByteReader(strings.NewReader(tt.in))} {
				got, err := readAll(t, NewReader(src))
				if err != io.EOF {
					t.Fatalf("err = %v, want io.EOF", err)
				}
				if !reflect.DeepEqual(got, tt.want) {
					t.Fatalf("events = %#v\nwant %#v", got, tt.want)
				}
			}
		})
	}
}

func TestReaderLineTooLong(t *testing.T) {
	in := "data: " + strings.Repeat("x", 100) + "\n\n"
	_, err := readAll(t, NewReaderSize(strings.NewReader(in), 50))
	if !errors.Is(err, ErrTooLong) {
		t.Fatalf("err = %v, want ErrTooLong", err)
	}
	if !strings.Contains(err.Error(), "50 bytes") {
		t.Fatalf("error %q does not name the limit", err)
	}
}

func TestReaderEventTooLong(t *testing.T) {
	in := strings.Repeat("data: 0123456789\n", 10) + "\n"
	_, err := readAll(t, NewReaderSize(strings.NewReader(in), 64))
	if !errors.Is(err, ErrTooLong) {
		t.Fatalf("err = %v, want ErrTooLong", err)
	}
}

func TestReaderLongLineWithinLimit(t *testing.T) {
	long := strings.Repeat("y", 300_000) // larger than the initial buffer
	got, err := readAll(t, NewReader(strings.NewReader("data: "+long+"\n\ndata: z\n\n")))
	if err != io.EOF {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Data != long || got[1].Data != "z" {
		t.Fatalf("got %d events", len(got))
	}
}

func TestReaderReadErrorDropsPartialEvent(t *testing.T) {
	boom := errors.New("connection reset")
	src := io.MultiReader(strings.NewReader("data: a\n\ndata: half"), iotest.ErrReader(boom))
	got, err := readAll(t, NewReader(src))
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want %v", err, boom)
	}
	if len(got) != 1 || got[0].Data != "a" {
		t.Fatalf("events = %#v, want only the complete one", got)
	}
}

type zeroReader struct{}

func (zeroReader) Read([]byte) (int, error) { return 0, nil }

func TestReaderNoProgress(t *testing.T) {
	_, err := readAll(t, NewReader(zeroReader{}))
	if !errors.Is(err, io.ErrNoProgress) {
		t.Fatalf("err = %v, want io.ErrNoProgress", err)
	}
}
