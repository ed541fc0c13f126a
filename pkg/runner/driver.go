package runner

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/tavo-cli/tavo/pkg/tools"
)

// Driver reads the control channel of --input ndjson: one JSON object per
// line on stdin from a driving program (SPEC §3).
//
//	{"type":"ask.answer","call_id":"…","answer":"…"}   (or "status":"cancelled")
//	{"type":"ask.answer","call_id":"…","answers":[…]}  (seed 004's questions, one entry each)
//	{"type":"confirm.result","call_id":"…","decision":"allow"|"deny"}
//	{"type":"guidance","text":"…"}
//	{"type":"cancel"}
type Driver struct {
	guidance chan string
	cancel   func()
	warn     func(code, msg string)

	mu sync.Mutex
	// done holds the call_ids already answered: a second answer for one
	// is warned about and dropped. An answer may come before its question
	// (a script that knows the ids); one that no question ever took is
	// warned about when the run ends (WarnUnused).
	done     map[string]bool
	answers  map[string]driverAnswer
	waiters  map[string]chan driverAnswer
	confirms map[string]string
	cwaiters map[string]chan string
	closed   bool
}

type driverAnswer struct {
	answer    string
	answers   []json.RawMessage
	cancelled bool
}

type driverLine struct {
	Type     string            `json:"type"`
	CallID   string            `json:"call_id"`
	Answer   json.RawMessage   `json:"answer"`
	Answers  []json.RawMessage `json:"answers"`
	Status   string            `json:"status"`
	Decision string            `json:"decision"`
	Text     string            `json:"text"`
}

// NewDriver starts reading r. cancel is called on a {"type":"cancel"} line;
// warn reports lines it cannot use (they are skipped, never fatal).
func NewDriver(r io.Reader, cancel func(), warn func(code, msg string)) *Driver {
	d := &Driver{
		guidance: make(chan string, 64),
		cancel:   cancel,
		warn:     warn,
		done:     map[string]bool{},
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

// MaxLineBytes is the longest control line the driver reads. A longer line
// is skipped with a warning (code line_too_long) and the channel goes on.
const MaxLineBytes = 4 << 20

func (d *Driver) read(r io.Reader) {
	lines := newLineReader(r, MaxLineBytes)
	for {
		line, tooLong, err := lines.next()
		if tooLong {
			d.warnf("line_too_long", fmt.Sprintf("skipped an input line longer than %d bytes", MaxLineBytes))
		} else if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 {
			var in driverLine
			if jerr := json.Unmarshal(trimmed, &in); jerr != nil {
				d.warnf("bad_input", "ignored an input line that is not a JSON object")
			} else {
				d.handle(in)
			}
		}
		if err != nil {
			break
		}
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

// lineReader splits input into lines of at most max bytes, in constant
// memory: the rest of a longer line is read and thrown away, so one huge
// line cannot end the channel (as bufio.Scanner's ErrTooLong would) nor
// fill the memory.
type lineReader struct {
	r   *bufio.Reader
	max int
	buf []byte
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// next returns the next line without its line ending (\n or \r\n).
// tooLong reports a line over the limit (line is then nil). err is set at
// the end of the input (io.EOF) or on a read error; line holds what came
// before it.
func (l *lineReader) next() (line []byte, tooLong bool, err error) {
	l.buf = l.buf[:0]
	over := false
	for {
		frag, ferr := l.r.ReadSlice('\n')
		// Keep at most the limit and a line ending; drop the rest.
		if !over {
			if len(l.buf)+len(frag) > l.max+2 {
				over, l.buf = true, l.buf[:0]
			} else {
				l.buf = append(l.buf, frag...)
			}
		}
		if ferr == bufio.ErrBufferFull {
			continue
		}
		line = bytes.TrimSuffix(bytes.TrimSuffix(l.buf, []byte("\n")), []byte("\r"))
		if over || len(line) > l.max {
			return nil, true, ferr
		}
		return line, false, ferr
	}
}

func (d *Driver) handle(in driverLine) {
	switch in.Type {
	case "ask.answer":
		if in.CallID == "" {
			d.warnf("bad_input", "ignored an ask.answer line without call_id")
			return
		}
		a := driverAnswer{cancelled: in.Status == "cancelled"}
		if !a.cancelled && in.Answers != nil {
			a.answers = in.Answers
		} else if !a.cancelled {
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
		defer d.mu.Unlock()
		if !d.take("a confirm.result", in.CallID) {
			return
		}
		if w, ok := d.cwaiters[in.CallID]; ok {
			w <- in.Decision
			delete(d.cwaiters, in.CallID)
			d.done[in.CallID] = true
		} else {
			d.confirms[in.CallID] = in.Decision
		}
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
	if !d.take("an ask.answer", callID) {
		return
	}
	if w, ok := d.waiters[callID]; ok {
		w <- a
		delete(d.waiters, callID)
		d.done[callID] = true
		return
	}
	d.answers[callID] = a
}

// take reports whether callID may still be answered, and warns when it
// was answered before; the caller holds d.mu and drops the line when it
// returns false.
func (d *Driver) take(kind, callID string) bool {
	if d.done[callID] {
		d.warnf("unknown_call", fmt.Sprintf("ignored %s line for call_id %s: it was answered already", kind, strconvQuote(callID)))
		return false
	}
	return true
}

// WarnUnused warns, once for each, about answers no question or
// confirmation took: their call_id matched nothing the run asked. The run
// calls it just before run.completed (Options.BeforeCompleted).
func (d *Driver) WarnUnused() {
	d.mu.Lock()
	var lines []string
	for id := range d.answers {
		lines = append(lines, "an ask.answer "+strconvQuote(id))
	}
	for id := range d.confirms {
		lines = append(lines, "a confirm.result "+strconvQuote(id))
	}
	clear(d.answers)
	clear(d.confirms)
	d.mu.Unlock()
	slices.Sort(lines)
	for _, l := range lines {
		i := strings.LastIndexByte(l, ' ')
		d.warnf("unknown_call", fmt.Sprintf("ignored %s line for call_id %s: the run asked nothing with that id", l[:i], l[i+1:]))
	}
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
		d.done[callID] = true
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
	if len(q.Questions) > 0 {
		raws := got.answers
		if raws == nil && len(q.Questions) == 1 {
			// A one-question ask may be answered the seed 000 way.
			raws = []json.RawMessage{json.RawMessage(strconvQuote(got.answer))}
		}
		answers, ok := itemAnswers(q, raws)
		if !ok {
			a.d.warnf("bad_input", fmt.Sprintf("the driver's answers do not fit the %d questions asked (one entry per question: a typed line, or {selected:[labels], custom?}); treated as cancelled", len(q.Questions)))
			return tools.Answer{Status: "cancelled", Via: "driver"}, nil
		}
		return tools.Answer{Status: tools.StatusAnswered, Answers: answers, Via: "driver"}, nil
	}
	if got.answers != nil {
		a.d.warnf("bad_input", "the driver sent answers for a single question; send answer instead; treated as cancelled")
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
		d.done[callID] = true
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
