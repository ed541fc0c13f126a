package runner

import (
	"context"
	"errors"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/tavo-cli/tavo/pkg/tools"
)

// warnings collects what a Driver warns about.
type warnings struct {
	mu   sync.Mutex
	msgs []string
}

func (w *warnings) add(code, msg string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.msgs = append(w.msgs, code+": "+msg)
}

func (w *warnings) all() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(w.msgs, "\n")
}

// drain reads every guidance text until the input ends.
func drain(d *Driver) []string {
	var out []string
	for g := range d.Guidance() {
		out = append(out, g)
	}
	return out
}

// TestDriverGuidanceIsDelivered pins that no guidance line is lost: each
// one reaches Guidance, in order, and bad lines warn without ending the
// channel.
func TestDriverGuidanceIsDelivered(t *testing.T) {
	w := &warnings{}
	input := strings.Join([]string{
		`{"type":"guidance","text":"first"}`,
		``,
		`not json`,
		`{"type":"guidance","text":"   "}`,
		`{"type":"bogus"}`,
		`{"type":"guidance","text":"second"}`,
	}, "\n")
	d := NewDriver(strings.NewReader(input), nil, w.add)
	if got := drain(d); strings.Join(got, "|") != "first|second" {
		t.Fatalf("guidance %q, want first and second", got)
	}
	for _, want := range []string{"not a JSON object", "guidance line without text", `unknown type "bogus"`} {
		if !strings.Contains(w.all(), want) {
			t.Errorf("warnings %q lack %q", w.all(), want)
		}
	}
}

func TestDriverGuidanceOverflowWarns(t *testing.T) {
	w := &warnings{}
	var b strings.Builder
	for range 70 {
		b.WriteString(`{"type":"guidance","text":"g"}` + "\n")
	}
	d := NewDriver(strings.NewReader(b.String()), nil, w.add)
	// The channel holds 64: lines beyond that, while nobody reads, are
	// dropped with a warning, never silently.
	got := 0
	for range d.Guidance() {
		got++
	}
	if got < 64 || got > 70 {
		t.Fatalf("%d guidance texts delivered", got)
	}
	if got < 70 && !strings.Contains(w.all(), "dropped guidance") {
		t.Fatalf("%d delivered but no warning: %q", got, w.all())
	}
}

func TestDriverCancelLine(t *testing.T) {
	cancelled := make(chan struct{})
	d := NewDriver(strings.NewReader(`{"type":"cancel"}`+"\n"), func() { close(cancelled) }, nil)
	<-cancelled
	drain(d)
	// A driver without a cancel func ignores the line.
	drain(NewDriver(strings.NewReader(`{"type":"cancel"}`), nil, nil))
}

func TestDriverAnswersBeforeAndAfterTheQuestion(t *testing.T) {
	pr, pw := io.Pipe()
	w := &warnings{}
	d := NewDriver(pr, nil, w.add)
	asker := driverAsker{d: d}
	q := tools.Question{CallID: "c1", Question: "Which?", Options: []tools.Option{{Value: "a", Label: "A"}, {Value: "b", Label: "B"}}}

	// An answer that arrives before the question is kept for it.
	io.WriteString(pw, `{"type":"ask.answer","call_id":"c0","answer":"B"}`+"\n")
	// The question waits for its answer.
	done := make(chan tools.Answer, 1)
	go func() {
		a, err := asker.Ask(context.Background(), q)
		if err != nil {
			t.Error(err)
		}
		done <- a
	}()
	io.WriteString(pw, `{"type":"ask.answer","call_id":"c1","answer":"a"}`+"\n")
	if a := <-done; a.Status != tools.StatusAnswered || a.Answer != "a" || a.Via != "driver" {
		t.Fatalf("answer %+v", a)
	}
	q.CallID = "c0"
	if a, err := asker.Ask(context.Background(), q); err != nil || a.Answer != "b" || a.Source != tools.AnswerSourceOption {
		t.Fatalf("early answer %+v %v", a, err)
	}
	// A strict question's answer that matches nothing is cancelled, with a warning.
	io.WriteString(pw, `{"type":"ask.answer","call_id":"c2","answer":"zzz"}`+"\n")
	q.CallID = "c2"
	if a, _ := asker.Ask(context.Background(), q); a.Status != tools.StatusCancelled {
		t.Fatalf("unmatched answer %+v", a)
	}
	if !strings.Contains(w.all(), "matches no option") {
		t.Fatalf("warnings %q", w.all())
	}
	// Cancelled by the driver; bad lines warn.
	// The bad lines go first: lines are handled in order, so once c3's
	// answer is seen their warnings have been given.
	io.WriteString(pw, `{"type":"ask.answer","answer":"x"}`+"\n")
	io.WriteString(pw, `{"type":"ask.answer","call_id":"c4","answer":5}`+"\n")
	io.WriteString(pw, `{"type":"ask.answer","call_id":"c3","status":"cancelled"}`+"\n")
	q.CallID = "c3"
	if a, _ := asker.Ask(context.Background(), q); a.Status != tools.StatusCancelled || a.Via != "driver" {
		t.Fatalf("driver cancel %+v", a)
	}
	for _, want := range []string{"without call_id", "answer is not a string"} {
		if !strings.Contains(w.all(), want) {
			t.Errorf("warnings %q lack %q", w.all(), want)
		}
	}
	// A question whose context ends stops waiting.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	q.CallID = "c9"
	if _, err := asker.Ask(ctx, q); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled ask: %v", err)
	}
	// A question pending when the input ends is cancelled, and so is any
	// asked after.
	pending := make(chan tools.Answer, 1)
	q.CallID = "c5"
	go func() {
		a, _ := asker.Ask(context.Background(), q)
		pending <- a
	}()
	for {
		d.mu.Lock()
		n := len(d.waiters)
		d.mu.Unlock()
		if n == 1 {
			break
		}
		runtime.Gosched()
	}
	pw.Close()
	if a := <-pending; a.Status != tools.StatusCancelled {
		t.Fatalf("pending at end of input: %+v", a)
	}
	drain(d)
	q.CallID = "c6"
	if a, _ := asker.Ask(context.Background(), q); a.Status != tools.StatusCancelled {
		t.Fatalf("after end of input: %+v", a)
	}
}

func TestDriverConfirmations(t *testing.T) {
	pr, pw := io.Pipe()
	w := &warnings{}
	d := NewDriver(pr, nil, w.add)
	c := NewConfirmer(false, AskSources{Driver: d})
	io.WriteString(pw, `{"type":"confirm.result","call_id":"k1","decision":"deny"}`+"\n")
	io.WriteString(pw, `{"type":"confirm.result","call_id":"k2","decision":"maybe"}`+"\n")
	done := make(chan tools.Confirmation, 1)
	go func() {
		v, err := c.Confirm(context.Background(), tools.ConfirmRequest{CallID: "k0"})
		if err != nil {
			t.Error(err)
		}
		done <- v
	}()
	io.WriteString(pw, `{"type":"confirm.result","call_id":"k0","decision":"allow"}`+"\n")
	if v := <-done; !v.Allow || v.Via != "driver" {
		t.Fatalf("k0 %+v", v)
	}
	if v, _ := c.Confirm(context.Background(), tools.ConfirmRequest{CallID: "k1"}); v.Allow || v.Via != "driver" {
		t.Fatalf("k1 %+v", v)
	}
	if !strings.Contains(w.all(), `decision other than "allow" or "deny"`) {
		t.Fatalf("warnings %q", w.all())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Confirm(ctx, tools.ConfirmRequest{CallID: "k3"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled confirm: %v", err)
	}
	pending := make(chan tools.Confirmation, 1)
	go func() {
		v, _ := c.Confirm(context.Background(), tools.ConfirmRequest{CallID: "k4"})
		pending <- v
	}()
	for {
		d.mu.Lock()
		n := len(d.cwaiters)
		d.mu.Unlock()
		if n == 1 {
			break
		}
		runtime.Gosched()
	}
	pw.Close()
	if v := <-pending; v.Allow || v.Via != "none" {
		t.Fatalf("pending at end of input: %+v", v)
	}
	drain(d)
	if v, _ := c.Confirm(context.Background(), tools.ConfirmRequest{CallID: "k5"}); v.Allow || v.Via != "none" {
		t.Fatalf("after end of input: %+v", v)
	}
}
