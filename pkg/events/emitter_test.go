package events

import (
	"encoding/json"
	"errors"
	"math"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestEmitConcurrentSeqGapFree(t *testing.T) {
	rec := &recorder{}
	em := NewEmitter("run_c", "ses_c", nil, rec)
	const goroutines, each = 32, 50
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				em.Emit(TextDelta, DeltaP{Round: 1, Text: strings.Repeat("x", g+i)})
			}
		}()
	}
	wg.Wait()
	if got := em.LastSeq(); got != goroutines*each {
		t.Fatalf("LastSeq = %d, want %d", got, goroutines*each)
	}
	if len(rec.lines) != goroutines*each {
		t.Fatalf("sink got %d lines, want %d", len(rec.lines), goroutines*each)
	}
	// Lines must reach the sink in seq order, starting at 1, without gaps.
	for i, line := range rec.lines {
		var env struct{ Seq int64 }
		if err := json.Unmarshal(line, &env); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		if env.Seq != int64(i+1) {
			t.Fatalf("line %d has seq %d, want %d", i, env.Seq, i+1)
		}
		if rec.envs[i].Seq != env.Seq {
			t.Fatalf("envelope seq %d differs from line seq %d", rec.envs[i].Seq, env.Seq)
		}
	}
}

func TestEmitTimeFormat(t *testing.T) {
	times := []time.Time{
		time.Date(2026, 11, 29, 16, 0, 0, 123_999_999, time.FixedZone("CET", 3600)),
		time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		time.Date(2026, 1, 2, 3, 4, 5, 7_000_000, time.UTC),
	}
	want := []string{"2026-11-29T15:00:00.123Z", "2026-01-02T03:04:05.000Z", "2026-01-02T03:04:05.007Z"}
	i := 0
	em := NewEmitter("run_t", "ses_t", func() time.Time { i++; return times[i-1] })
	for n := range times {
		env := em.Emit(RoundStarted, RoundStartedP{Round: n + 1})
		if env.Time != want[n] {
			t.Errorf("time = %q, want %q", env.Time, want[n])
		}
	}
	env := NewEmitter("run_t", "ses_t", nil).Emit(RoundStarted, RoundStartedP{Round: 1})
	if !regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`).MatchString(env.Time) {
		t.Errorf("default clock time %q has the wrong format", env.Time)
	}
}

func TestEmitLineMatchesEnvelope(t *testing.T) {
	rec := &recorder{}
	em := NewEmitter("run_\"q\"", "ses_<x>", fixedClock(), rec)
	for _, s := range samples() {
		env := em.Emit(s.T, s.P)
		want, err := marshal(env)
		if err != nil {
			t.Fatal(err)
		}
		got := rec.lines[len(rec.lines)-1]
		if string(got) != string(want)+"\n" {
			t.Errorf("%s line\n got %s\nwant %s", s.T, got, want)
		}
		if strings.Count(string(got), "\n") != 1 {
			t.Errorf("%s line is not exactly one line: %q", s.T, got)
		}
	}
	if !strings.Contains(string(rec.lines[0]), `"session_id":"ses_<x>"`) {
		t.Errorf("HTML characters were escaped: %s", rec.lines[0])
	}
}

func TestEmitSameBytesToEverySinkInOrder(t *testing.T) {
	var order []string
	var first, second []byte
	em := NewEmitter("run_o", "ses_o", fixedClock(),
		FuncSink(func(_ *Envelope, l []byte) error { order = append(order, "a"); first = l; return nil }))
	em.AddSink(FuncSink(func(_ *Envelope, l []byte) error { order = append(order, "b"); second = l; return nil }))
	em.Emit(RoundStarted, RoundStartedP{Round: 1})
	if strings.Join(order, "") != "ab" {
		t.Errorf("sinks called in order %v, want [a b]", order)
	}
	if &first[0] != &second[0] {
		t.Error("sinks got different buffers; the line should be encoded once")
	}
}

func TestEmitFailingSinkDoesNotStopOthers(t *testing.T) {
	boom := errors.New("broken pipe")
	fails := 0
	failing := FuncSink(func(*Envelope, []byte) error { fails++; return boom })
	rec := &recorder{}
	em := NewEmitter("run_f", "ses_f", fixedClock(), failing, rec)
	em.Emit(RoundStarted, RoundStartedP{Round: 1})
	em.Emit(TextDelta, DeltaP{Round: 1, Text: "hi"})
	if len(rec.lines) != 2 {
		t.Fatalf("second sink got %d lines, want 2", len(rec.lines))
	}
	if fails != 2 {
		t.Errorf("failing sink called %d times, want 2", fails)
	}
	if em.LastSeq() != 2 || rec.envs[1].Seq != 2 {
		t.Errorf("seq broken by a failing sink: last %d", em.LastSeq())
	}
	err := em.Err()
	if !errors.Is(err, boom) {
		t.Fatalf("Err = %v, want it to wrap %v", err, boom)
	}
	if !strings.Contains(err.Error(), "event 1 (round.started)") {
		t.Errorf("Err %q should name the first failed event", err)
	}
}

func TestEmitErrNilWhenAllSinksSucceed(t *testing.T) {
	em := NewEmitter("run_n", "ses_n", nil, &recorder{})
	em.Emit(RoundStarted, RoundStartedP{Round: 1})
	if err := em.Err(); err != nil {
		t.Fatalf("Err = %v, want nil", err)
	}
}

func TestEmitUnencodablePayloadBecomesWarning(t *testing.T) {
	rec := &recorder{}
	em := NewEmitter("run_u", "ses_u", fixedClock(), rec)
	env := em.Emit(ToolResult, ToolResultP{Round: 1, CallID: "c", Name: "n", OK: true, Result: math.NaN()})
	if env.Type != Warning || env.Seq != 1 {
		t.Fatalf("got type %s seq %d, want warning seq 1", env.Type, env.Seq)
	}
	if err := Validate(rec.lines[0]); err != nil {
		t.Errorf("replacement warning does not validate: %v", err)
	}
	if !strings.Contains(string(rec.lines[0]), `"code":"event_encode_failed"`) {
		t.Errorf("line %s lacks the warning code", rec.lines[0])
	}
	if err := em.Err(); err == nil || !strings.Contains(err.Error(), "tool.result") {
		t.Errorf("Err = %v, want an error naming tool.result", err)
	}
}

func TestEmitNothingAfterRunCompleted(t *testing.T) {
	rec := &recorder{}
	em := NewEmitter("run_d", "ses_d", fixedClock(), rec)
	em.Emit(RoundStarted, RoundStartedP{Round: 1})
	em.Emit(RunCompleted, RunCompletedP{Status: StatusCancelled, ExitCode: ExitInterrupted})
	late := em.Emit(TextDelta, DeltaP{Round: 1, Text: "late"})
	again := em.Emit(RunCompleted, RunCompletedP{Status: StatusCompleted})
	if late.Seq != 0 || again.Seq != 0 {
		t.Errorf("events after run.completed got seq %d and %d, want 0", late.Seq, again.Seq)
	}
	if len(rec.lines) != 2 || em.LastSeq() != 2 {
		t.Errorf("got %d lines, last seq %d; want 2 and 2", len(rec.lines), em.LastSeq())
	}
}

func TestEmitNilPayloadIsEmptyObject(t *testing.T) {
	rec := &recorder{}
	NewEmitter("run_e", "ses_e", fixedClock(), rec).Emit(RoundStarted, nil)
	if !strings.HasSuffix(string(rec.lines[0]), `"payload":{}}`+"\n") {
		t.Errorf("line %s: nil payload should be {}", rec.lines[0])
	}
}
