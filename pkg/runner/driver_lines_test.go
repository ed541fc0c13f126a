package runner

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// driverRecorder collects what a Driver reports.
type driverRecorder struct {
	mu        sync.Mutex
	warnings  []string
	cancelled int
}

func (r *driverRecorder) warn(code, msg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.warnings = append(r.warnings, code+": "+msg)
}

func (r *driverRecorder) cancel() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cancelled++
}

// readAll runs a Driver over input and waits until it has read it all.
func readAll(t *testing.T, input string) (*Driver, *driverRecorder) {
	t.Helper()
	rec := &driverRecorder{}
	d := NewDriver(strings.NewReader(input), rec.cancel, rec.warn)
	for range d.Guidance() { // closed when the input is read
	}
	return d, rec
}

// One line over the limit is skipped with a warning; the channel goes on,
// so a later cancel is still read.
func TestDriverSkipsOverlongLine(t *testing.T) {
	long := `{"type":"guidance","text":"` + strings.Repeat("a", MaxLineBytes+10) + `"}`
	rec := &driverRecorder{}
	d := NewDriver(strings.NewReader(long+"\n"+`{"type":"guidance","text":"after"}`+"\n"+`{"type":"cancel"}`+"\n"), rec.cancel, rec.warn)
	var got []string
	for g := range d.Guidance() {
		got = append(got, g)
	}
	if len(got) != 1 || got[0] != "after" {
		t.Fatalf("guidance after the long line: %q", got)
	}
	if rec.cancelled != 1 {
		t.Fatalf("cancel read %d times", rec.cancelled)
	}
	if len(rec.warnings) != 1 || !strings.HasPrefix(rec.warnings[0], "line_too_long: ") {
		t.Fatalf("warnings %q", rec.warnings)
	}
}

// A line of exactly the limit is read; the limit does not count the newline.
func TestDriverReadsLineAtTheLimit(t *testing.T) {
	prefix, suffix := `{"type":"guidance","text":"`, `"}`
	line := prefix + strings.Repeat("b", MaxLineBytes-len(prefix)-len(suffix)) + suffix
	for _, input := range []string{line + "\n", line, line + "\r\n"} {
		rec := &driverRecorder{}
		d := NewDriver(strings.NewReader(input), rec.cancel, rec.warn)
		n := 0
		for range d.Guidance() {
			n++
		}
		if n != 1 || len(rec.warnings) != 0 {
			t.Fatalf("%d guidance, warnings %q", n, rec.warnings)
		}
	}
}

// An answer for a call_id no question took is warned about when the run
// ends; an answer for one already answered at once.
func TestDriverWarnsAboutUnknownCallIDs(t *testing.T) {
	d, rec := readAll(t, `{"type":"ask.answer","call_id":"call_q","answer":"yes"}
{"type":"ask.answer","call_id":"call_nope","answer":"x"}
{"type":"confirm.result","call_id":"call_c","decision":"allow"}
`)
	ctx := context.Background()
	if a, err := d.answer(ctx, "call_q"); err != nil || a.answer != "yes" {
		t.Fatalf("answer %+v %v", a, err)
	}
	if len(rec.warnings) != 0 {
		t.Fatalf("early warnings %q", rec.warnings)
	}
	d.WarnUnused()
	want := []string{
		`unknown_call: ignored a confirm.result line for call_id "call_c": the run asked nothing with that id`,
		`unknown_call: ignored an ask.answer line for call_id "call_nope": the run asked nothing with that id`,
	}
	if len(rec.warnings) != 2 || !strings.Contains(strings.Join(rec.warnings, "\n"), "call_nope") || !strings.Contains(strings.Join(rec.warnings, "\n"), `"call_c"`) {
		t.Fatalf("warnings %q, want %q", rec.warnings, want)
	}
	d.WarnUnused() // once each
	if len(rec.warnings) != 2 {
		t.Fatalf("warned twice: %q", rec.warnings)
	}
}

func TestDriverWarnsAboutSecondAnswer(t *testing.T) {
	rec := &driverRecorder{}
	pr, pw := ioPipe()
	d := NewDriver(pr, rec.cancel, rec.warn)
	got := make(chan driverAnswer, 1)
	go func() {
		a, _ := d.answer(context.Background(), "call_1")
		got <- a
	}()
	// Wait until the question waits, so the answer is delivered, not kept.
	for {
		d.mu.Lock()
		_, waiting := d.waiters["call_1"]
		d.mu.Unlock()
		if waiting {
			break
		}
		time.Sleep(time.Millisecond)
	}
	pw.Write([]byte(`{"type":"ask.answer","call_id":"call_1","answer":"a"}` + "\n" + `{"type":"ask.answer","call_id":"call_1","answer":"b"}` + "\n"))
	pw.Close()
	for range d.Guidance() {
	}
	if a := <-got; a.answer != "a" {
		t.Fatalf("answer %+v", a)
	}
	if len(rec.warnings) != 1 || !strings.Contains(rec.warnings[0], "answered already") {
		t.Fatalf("warnings %q", rec.warnings)
	}
}

// FuzzDriverRead: whatever comes first — broken JSON, huge or binary
// lines, no newline at the end — the reader never panics, and a cancel line
// after it is always read.
func FuzzDriverRead(f *testing.F) {
	f.Add([]byte(`{"type":"guidance","text":"hi"}`))
	f.Add([]byte(`{"type":"ask.answer","call_id":"c","answer":1}`))
	f.Add([]byte("not json\n\n\r\n{"))
	f.Add(bytes.Repeat([]byte("x"), 70000))
	f.Add([]byte(`{"type":"confirm.result","call_id":"c","decision":"maybe"}` + "\n" + `{"type":"cancel"`))
	f.Fuzz(func(t *testing.T, in []byte) {
		rec := &driverRecorder{}
		input := append(append(append([]byte(nil), in...), '\n'), `{"type":"cancel"}`+"\n"...)
		d := NewDriver(bytes.NewReader(input), rec.cancel, rec.warn)
		for range d.Guidance() {
		}
		if rec.cancelled < 1 {
			t.Fatalf("the cancel line after %q was not read (warnings %q)", in, rec.warnings)
		}
		d.WarnUnused()
	})
}

// ioPipe is io.Pipe, named here so the test reads as a driver's stdin.
func ioPipe() (*io.PipeReader, *io.PipeWriter) { return io.Pipe() }
