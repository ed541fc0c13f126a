package events

import (
	"fmt"
	"strconv"
	"sync"
	"time"
)

// timeLayout is the envelope's time: UTC, milliseconds, always three digits,
// so lines sort and compare as text.
const timeLayout = "2006-01-02T15:04:05.000Z"

// Emitter numbers the events of one run and hands each, encoded once, to
// every sink in the order the sinks were added.
//
// Emit holds a lock while the sinks write, so lines reach every sink in seq
// order even when several goroutines emit; a slow sink therefore delays the
// others. After run.completed the Emitter writes nothing more: the stream
// always ends with exactly the run.completed that was emitted first.
type Emitter struct {
	now func() time.Time
	// ids is `,"run_id":…,"session_id":…,"type":` encoded once for all lines.
	ids       []byte
	runID     string
	sessionID string

	mu    sync.Mutex
	seq   int64
	sinks []Sink
	err   error
	done  bool
}

// NewEmitter returns an Emitter for one run. now supplies event times (nil
// means time.Now); tests pass a fixed clock.
func NewEmitter(runID, sessionID string, now func() time.Time, sinks ...Sink) *Emitter {
	if now == nil {
		now = time.Now
	}
	run, _ := marshal(runID)
	ses, _ := marshal(sessionID)
	ids := make([]byte, 0, len(run)+len(ses)+40)
	ids = append(ids, `","run_id":`...)
	ids = append(ids, run...)
	ids = append(ids, `,"session_id":`...)
	ids = append(ids, ses...)
	ids = append(ids, `,"type":`...)
	return &Emitter{
		now:       now,
		ids:       ids,
		runID:     runID,
		sessionID: sessionID,
		sinks:     append([]Sink(nil), sinks...),
	}
}

// AddSink adds a sink that receives every later event (earlier ones are not
// replayed).
func (e *Emitter) AddSink(s Sink) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.sinks = append(e.sinks, s)
}

// LastSeq returns the seq of the latest event written, 0 before the first.
func (e *Emitter) LastSeq() int64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.seq
}

// Err returns the first error met while emitting: a sink that failed to
// write, or a payload that could not be encoded. Later errors are dropped.
func (e *Emitter) Err() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.err
}

// Emit writes one event and returns its envelope. It is safe for concurrent
// use. seq starts at 1 and has no gaps, whatever the sinks do: a failing
// sink is remembered (see Err) and the other sinks still get the line.
//
// A payload that cannot be encoded (a programming error) is replaced by a
// warning event with code "event_encode_failed", so the stream stays valid.
// Once run.completed has been written, Emit writes nothing and returns an
// envelope whose Seq is 0.
func (e *Emitter) Emit(t Type, payload any) *Envelope {
	// Encode outside the lock: payloads can be large (tool results) and
	// other goroutines should not wait for that.
	typ, body, encErr := encodeBody(t, payload)
	if encErr != nil {
		encErr = fmt.Errorf("encode %s event: %w", t, encErr)
		payload = WarningP{
			Code:    "event_encode_failed",
			Message: fmt.Sprintf("an event was left out: %v", encErr),
			Details: map[string]any{"type": string(t)},
		}
		t = Warning
		typ, body, _ = encodeBody(t, payload)
	}

	e.mu.Lock()
	defer e.mu.Unlock()
	env := &Envelope{V: Version, RunID: e.runID, SessionID: e.sessionID, Type: t, Payload: payload}
	if e.done {
		return env
	}
	if encErr != nil {
		e.remember(encErr)
	}
	e.seq++
	env.Seq = e.seq
	env.Time = e.now().UTC().Format(timeLayout)
	if t == RunCompleted {
		e.done = true
	}

	line := make([]byte, 0, len(body)+len(typ)+len(e.ids)+64)
	line = append(line, `{"v":`...)
	line = strconv.AppendInt(line, Version, 10)
	line = append(line, `,"seq":`...)
	line = strconv.AppendInt(line, env.Seq, 10)
	line = append(line, `,"time":"`...)
	line = append(line, env.Time...)
	line = append(line, e.ids...)
	line = append(line, typ...)
	line = append(line, `,"payload":`...)
	line = append(line, body...)
	line = append(line, "}\n"...)

	for i, s := range e.sinks {
		if err := s.WriteEvent(env, line); err != nil {
			e.remember(fmt.Errorf("write event %d (%s) to sink %d: %w", env.Seq, t, i+1, err))
		}
	}
	return env
}

// remember keeps the first error; the caller holds e.mu.
func (e *Emitter) remember(err error) {
	if e.err == nil {
		e.err = err
	}
}

// encodeBody encodes the type and the payload; a nil payload becomes {} so
// every payload is an object.
func encodeBody(t Type, payload any) (typ, body []byte, err error) {
	typ, err = marshal(t)
	if err != nil {
		return nil, nil, err
	}
	if payload == nil {
		return typ, []byte("{}"), nil
	}
	body, err = marshal(payload)
	return typ, body, err
}
