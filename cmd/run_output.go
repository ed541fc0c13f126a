package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/runner"
)

// runOutput prints a run's events in the chosen format. It is an events.Sink.
type runOutput struct {
	f      *Factory
	format cli.Format
	jq     *cli.JQ

	mu          sync.Mutex
	completed   *events.Envelope
	wroteText   bool // some answer text reached stdout
	lastNewline bool
	roundText   bool // the current round streamed text
	spinner     func()

	// onFail is called once, with the first error writing stdout: the run
	// stops, since nobody can read what it would say next.
	onFail func(error)
	failed bool
	// jqErr is the first failure of the --jq filter. As jq itself does,
	// the events after it are still filtered; the command exits 1.
	jqErr *cli.JQError
}

func newRunOutput(f *Factory, format cli.Format, jq *cli.JQ) *runOutput {
	return &runOutput{f: f, format: format, jq: jq, lastNewline: true}
}

// WriteEvent implements events.Sink.
func (o *runOutput) WriteEvent(e *events.Envelope, line []byte) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if e.Type == events.RunCompleted {
		o.completed = e
	}
	err := o.write(e, line)
	var je *cli.JQError
	if errors.As(err, &je) {
		if o.jqErr == nil {
			o.jqErr = je
		}
		return err
	}
	if err == nil {
		// Text output prints with fmt, which drops write errors; the
		// streams keep them.
		err = o.f.IO.OutErr()
	}
	if err != nil && !o.failed {
		o.failed = true
		if o.onFail != nil {
			o.onFail(err)
		}
	}
	return err
}

// outputStopCause is how a run ends when its stdout cannot be written: a
// closed pipe is a reader that wanted no more (exit 141, like SIGPIPE),
// anything else a failure (exit 1).
func outputStopCause(err error) *runner.StopCause {
	if cli.IsClosedPipe(err) {
		return &runner.StopCause{Reason: "standard output was closed (SIGPIPE)", ExitCode: events.ExitClosedPipe}
	}
	return &runner.StopCause{
		Reason:   "writing standard output: " + err.Error(),
		ExitCode: events.ExitFailed,
		Status:   events.StatusFailed,
		Code:     "output_failed",
	}
}

func (o *runOutput) write(e *events.Envelope, line []byte) error {
	switch o.format {
	case cli.FormatNDJSON:
		if o.jq != nil {
			var v any
			if err := json.Unmarshal(line, &v); err != nil {
				return err
			}
			return o.jq.Apply(o.f.IO.Out, v)
		}
		_, err := o.f.IO.Out.Write(line)
		return err
	case cli.FormatJSON:
		return nil
	}
	return o.text(e)
}

// text renders events for a person: the answer on stdout, progress on stderr.
func (o *runOutput) text(e *events.Envelope) error {
	out, errOut := o.f.IO.Out, o.f.IO.ErrOut
	switch p := e.Payload.(type) {
	case events.RoundStartedP:
		o.roundText = false
		o.startSpinner("thinking")
	case events.DeltaP:
		o.stopSpinner()
		if e.Type == events.ReasoningDelta {
			if o.f.Verbose {
				fmt.Fprint(errOut, p.Text)
			}
			return nil
		}
		if !o.roundText {
			// A round's text starts on its own line: a goal's turns, or a
			// note before tool calls and the answer after them, would
			// otherwise run together.
			o.endLine(out)
		}
		o.roundText = true
		return o.writeAnswer(out, p.Text)
	case events.MessageP:
		o.stopSpinner()
		if !o.roundText && p.Text != "" {
			return o.writeAnswer(out, p.Text)
		}
	case events.MessageSentP:
		// tavo_send_message speaks to the person: it is printed like an answer.
		o.stopSpinner()
		o.endLine(out)
		return o.writeAnswer(out, p.Text+"\n")
	case events.ToolCallP:
		o.endLine(out)
		if !o.f.Quiet {
			args, _ := json.Marshal(p.Arguments)
			fmt.Fprintf(errOut, "→ %s %s\n", p.Name, clip(string(args), 120))
		}
	case events.ToolResultP:
		if !o.f.Quiet {
			if p.OK {
				fmt.Fprintf(errOut, "← %s ok (%d bytes, %d ms)\n", p.Name, p.Bytes, p.DurationMS)
			} else if p.Error != nil {
				fmt.Fprintf(errOut, "← %s failed: %s: %s\n", p.Name, p.Error.Code, clip(p.Error.Message, 200))
			}
		}
	case events.RetryP:
		o.stopSpinner()
		if !o.f.Quiet {
			fmt.Fprintf(errOut, "tavo: retry %d in %.1fs (%s)\n", p.Attempt, float64(p.WaitMS)/1000, p.Reason)
		}
	case events.WarningP:
		if !o.f.Quiet {
			fmt.Fprintf(errOut, "tavo: warning: %s: %s\n", p.Code, p.Message)
		}
	case events.ToolsVisibleP:
		if o.f.Verbose {
			fmt.Fprintf(errOut, "tavo: tools now visible: %s\n", strings.Join(p.Added, ", "))
		}
	case events.RunCompletedP:
		o.stopSpinner()
		o.endLine(out)
	}
	return nil
}

func (o *runOutput) writeAnswer(w io.Writer, s string) error {
	if s == "" {
		return nil
	}
	if o.wroteText && !o.roundText && !o.lastNewline {
		fmt.Fprintln(w)
	}
	o.wroteText = true
	o.lastNewline = strings.HasSuffix(s, "\n")
	_, err := io.WriteString(w, s)
	return err
}

func (o *runOutput) endLine(w io.Writer) {
	if o.wroteText && !o.lastNewline {
		fmt.Fprintln(w)
		o.lastNewline = true
	}
}

func (o *runOutput) startSpinner(label string) {
	if o.spinner == nil && !o.f.Quiet {
		o.spinner = o.f.IO.StartSpinner(label)
	}
}

func (o *runOutput) stopSpinner() {
	if o.spinner != nil {
		o.spinner()
		o.spinner = nil
	}
}

// finish writes what is printed once the run is over (-o json). A --jq
// filter that fails there is kept in jqErr, as one that fails on an event.
func (o *runOutput) finish(res *runner.Result) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.stopSpinner()
	if o.format != cli.FormatJSON || o.completed == nil {
		return nil
	}
	doc := map[string]any{}
	b, err := json.Marshal(o.completed.Payload)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return err
	}
	doc["run_id"] = o.completed.RunID
	doc["session_id"] = o.completed.SessionID
	if o.jq != nil {
		err = o.jq.Apply(o.f.IO.Out, doc)
		var je *cli.JQError
		if errors.As(err, &je) {
			o.jqErr = je
			return nil
		}
		return err
	}
	return cli.WriteJSON(o.f.IO.Out, doc, o.f.IO.IsStdoutTTY())
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
