package events

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// writeLog records every Write call separately.
type writeLog struct{ writes []string }

func (w *writeLog) Write(p []byte) (int, error) {
	w.writes = append(w.writes, string(p))
	return len(p), nil
}

func TestNDJSONWriterOneWritePerLine(t *testing.T) {
	w := &writeLog{}
	em := NewEmitter("run_w", "ses_w", fixedClock(), NewNDJSONWriter(w))
	for _, s := range samples() {
		em.Emit(s.T, s.P)
	}
	if len(w.writes) != len(samples()) {
		t.Fatalf("%d writes for %d events", len(w.writes), len(samples()))
	}
	for i, got := range w.writes {
		if strings.Count(got, "\n") != 1 || !strings.HasSuffix(got, "}\n") || !strings.HasPrefix(got, `{"v":1,`) {
			t.Errorf("write %d is not one whole line: %q", i, got)
		}
	}
}

func TestNDJSONWriterFlushesBufio(t *testing.T) {
	var out bytes.Buffer
	bw := bufio.NewWriterSize(&out, 64<<10)
	em := NewEmitter("run_b", "ses_b", fixedClock(), NewNDJSONWriter(bw))
	em.Emit(TextDelta, DeltaP{Round: 1, Text: "Hel"})
	if !strings.Contains(out.String(), `"text":"Hel"`) {
		t.Fatalf("event still buffered after Emit; underlying writer has %q", out.String())
	}
}

// shortWriter accepts only part of every write.
type shortWriter struct{}

func (shortWriter) Write(p []byte) (int, error) { return len(p) / 2, nil }

func TestNDJSONWriterErrors(t *testing.T) {
	line := []byte("{}\n")
	if err := NewNDJSONWriter(shortWriter{}).WriteEvent(nil, line); !errors.Is(err, io.ErrShortWrite) {
		t.Errorf("short write: err = %v, want io.ErrShortWrite", err)
	}
	r, w := io.Pipe()
	r.Close() // the reading end went away, like `tavo run | head -1`
	if err := NewNDJSONWriter(w).WriteEvent(nil, line); !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("write to a closed pipe: err = %v, want io.ErrClosedPipe", err)
	}
}

func TestFuncSinkPassesThrough(t *testing.T) {
	var got *Envelope
	want := errors.New("stop")
	s := FuncSink(func(e *Envelope, _ []byte) error { got = e; return want })
	env := &Envelope{Seq: 3}
	if err := s.WriteEvent(env, nil); err != want || got != env {
		t.Errorf("FuncSink returned %v with %v", err, got)
	}
}
