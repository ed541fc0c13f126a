package runner

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"

	"github.com/tavo-cli/tavo/pkg/tools"
)

// Driver reads the control channel of --input ndjson: one JSON object per
// line on stdin from a driving program (SPEC §3).
//
//	{"type":"ask.answer","call_id":"…","answer":"…"}   (or "status":"cancelled")
//	{"type":"confirm.result","call_id":"…","decision":"allow"|"deny"}
//	{"type":"guidance","text":"…"}
//	{"type":"cancel"}
type Driver struct {
	guidance chan string
	cancel   func()
	warn     func(code, msg string)

	mu       sync.Mutex
	answers  map[string]driverAnswer
	waiters  map[string]chan driverAnswer
	confirms map[string]string
	cwaiters map[string]chan string
	closed   bool
}

type driverAnswer struct {
	answer    string
	cancelled bool
}

type driverLine struct {
	Type     string          `json:"type"`
	CallID   string          `json:"call_id"`
	Answer   json.RawMessage `json:"answer"`
	Status   string          `json:"status"`
	Decision string          `json:"decision"`
	Text     string          `json:"text"`
}

// NewDriver starts reading r. cancel is called on a {"type":"cancel"} line;
// warn reports lines it cannot use (they are skipped, never fatal).
func NewDriver(r io.Reader, cancel func(), warn func(code, msg string)) *Driver {
	d := &Driver{
		guidance: make(chan string, 64),
		cancel:   cancel,
		warn:     warn,
		answers:  map[string]driverAnswer{},
		waiters:  map[string]chan driverAnswer{},
		confirms: map[string]string{},
		cwaiters: map[string]chan string{},
	}
	go d.read(r)
	return d
}

// Guidance delivers guidance texts; it is closed when the input ends.
func (d *Driver) Guidance() <-chan string { return d.guidance }

func (d *Driver) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var in driverLine
		if err := json.Unmarshal([]byte(line), &in); err != nil {
			d.warnf("bad_input", "ignored an input line that is not a JSON object")
			continue
		}
		d.handle(in)
	}
	d.mu.Lock()
	d.closed = true
	for id, w := range d.waiters {
		w <- driverAnswer{cancelled: true}
		delete(d.waiters, id)
	}
	for id, w := range d.cwaiters {
		w <- ""
		delete(d.cwaiters, id)
	}
	d.mu.Unlock()
	close(d.guidance)
}

func (d *Driver) handle(in driverLine) {
	switch in.Type {
	case "ask.answer":
		if in.CallID == "" {
			d.warnf("bad_input", "ignored an ask.answer line without call_id")
			return
		}
		a := driverAnswer{cancelled: in.Status == "cancelled"}
		if !a.cancelled {
			var s string
			if err := json.Unmarshal(in.Answer, &s); err != nil {
				d.warnf("bad_input", "ignored an ask.answer line whose answer is not a string")
				return
			}
			a.answer = s
		}
		d.deliver(in.CallID, a)
	case "confirm.result":
		if in.CallID == "" || (in.Decision != "allow" && in.Decision != "deny") {
			d.warnf("bad_input", `ignored a confirm.result line without call_id or with a decision other than "allow" or "deny"`)
			return
		}
		d.mu.Lock()
		if w, ok := d.cwaiters[in.CallID]; ok {
			w <- in.Decision
			delete(d.cwaiters, in.CallID)
		} else {
			d.confirms[in.CallID] = in.Decision
		}
		d.mu.Unlock()
	case "guidance":
		if strings.TrimSpace(in.Text) == "" {
			d.warnf("bad_input", "ignored a guidance line without text")
			return
		}
		select {
		case d.guidance <- in.Text:
		default:
			d.warnf("bad_input", "dropped guidance: too many lines are waiting")
		}
	case "cancel":
		if d.cancel != nil {
			d.cancel()
		}
	default:
		d.warnf("bad_input", "ignored an input line of unknown type "+strconvQuote(in.Type))
	}
}

func (d *Driver) deliver(callID string, a driverAnswer) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if w, ok := d.waiters[callID]; ok {
		w <- a
		delete(d.waiters, callID)
		return
	}
	d.answers[callID] = a
}

func (d *Driver) warnf(code, msg string) {
	if d.warn != nil {
		d.warn(code, msg)
	}
}

// answer waits for the driver's answer to callID.
func (d *Driver) answer(ctx context.Context, callID string) (driverAnswer, error) {
	d.mu.Lock()
	if a, ok := d.answers[callID]; ok {
		delete(d.answers, callID)
		d.mu.Unlock()
		return a, nil
	}
	if d.closed {
		d.mu.Unlock()
		return driverAnswer{cancelled: true}, nil
	}
	w := make(chan driverAnswer, 1)
	d.waiters[callID] = w
	d.mu.Unlock()
	select {
	case a := <-w:
		return a, nil
	case <-ctx.Done():
		d.mu.Lock()
		delete(d.waiters, callID)
		d.mu.Unlock()
		return driverAnswer{}, ctx.Err()
	}
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// driverAsker answers from the driver.
type driverAsker struct{ d *Driver }

func (a driverAsker) Ask(ctx context.Context, q tools.Question) (tools.Answer, error) {
	got, err := a.d.answer(ctx, q.CallID)
	if err != nil {
		return tools.Answer{}, err
	}
	if got.cancelled {
		return tools.Answer{Status: "cancelled", Via: "driver"}, nil
	}
	ans, ok := tools.MatchAnswer(q, got.answer)
	if !ok {
		a.d.warnf("bad_input", "the driver's answer matches no option of a strict question; treated as cancelled")
		return tools.Answer{Status: "cancelled", Via: "driver"}, nil
	}
	ans.Via = "driver"
	return ans, nil
}

// decision waits for the driver's confirm.result for callID: "allow",
// "deny", or "" when the input ended first.
func (d *Driver) decision(ctx context.Context, callID string) (string, error) {
	d.mu.Lock()
	if v, ok := d.confirms[callID]; ok {
		delete(d.confirms, callID)
		d.mu.Unlock()
		return v, nil
	}
	if d.closed {
		d.mu.Unlock()
		return "", nil
	}
	w := make(chan string, 1)
	d.cwaiters[callID] = w
	d.mu.Unlock()
	select {
	case v := <-w:
		return v, nil
	case <-ctx.Done():
		d.mu.Lock()
		delete(d.cwaiters, callID)
		d.mu.Unlock()
		return "", ctx.Err()
	}
}
