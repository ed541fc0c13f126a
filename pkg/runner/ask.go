package runner

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/tavo-cli/tavo/pkg/tools"
)

// AskMode is the --ask policy: where tavo_ask_user gets its answers.
type AskMode string

// Ask modes (SPEC §5).
const (
	// AskAuto: the terminal when there is one, else the driver under
	// --input ndjson, else a line of stdin when stdin is free, else cancelled.
	AskAuto AskMode = "auto"
	// AskTTY: only the terminal.
	AskTTY AskMode = "tty"
	// AskStdin: only a line of stdin.
	AskStdin AskMode = "stdin"
	// AskCancel: every question is answered "cancelled".
	AskCancel AskMode = "cancel"
	// AskFail: a question ends the run with input_required (exit 5).
	AskFail AskMode = "fail"
)

// ParseAskMode checks an --ask value.
func ParseAskMode(s string) (AskMode, error) {
	switch AskMode(s) {
	case "":
		return AskAuto, nil
	case AskAuto, AskTTY, AskStdin, AskCancel, AskFail:
		return AskMode(s), nil
	}
	return "", fmt.Errorf("invalid --ask %q: want auto, tty, stdin, cancel or fail", s)
}

// AskSources are the places an answer may come from; nil fields are absent.
type AskSources struct {
	// Terminal opens the controlling terminal; nil when tavo is not on one.
	Terminal func() (io.ReadWriteCloser, error)
	// Stdin is free standard input (not used for the prompt nor the driver).
	Stdin io.Reader
	// Driver is the --input ndjson control channel.
	Driver *Driver
}

// NewAsker returns the Asker for mode over the available sources.
//
// Under auto a driver wins over the terminal: a program that asked for
// --input ndjson means to answer, even when a person watches the terminal.
func NewAsker(mode AskMode, src AskSources) tools.Asker {
	var stdin *lineSource
	if src.Stdin != nil {
		stdin = &lineSource{r: bufio.NewReader(src.Stdin)}
	}
	switch mode {
	case AskCancel:
		return cancelAsker{}
	case AskFail:
		return failAsker{}
	case AskTTY:
		if src.Terminal == nil {
			return cancelAsker{}
		}
		return &terminalAsker{open: src.Terminal}
	case AskStdin:
		if stdin == nil {
			return cancelAsker{}
		}
		return stdinAsker{src: stdin}
	}
	switch {
	case src.Driver != nil:
		return driverAsker{d: src.Driver}
	case src.Terminal != nil:
		return &terminalAsker{open: src.Terminal, fallback: stdin}
	case stdin != nil:
		return stdinAsker{src: stdin}
	}
	return cancelAsker{}
}

type cancelAsker struct{}

func (cancelAsker) Ask(context.Context, tools.Question) (tools.Answer, error) {
	return tools.Answer{Status: "cancelled", Via: "none"}, nil
}

type failAsker struct{}

func (failAsker) Ask(context.Context, tools.Question) (tools.Answer, error) {
	return tools.Answer{}, tools.ErrInputRequired
}

// lineSource reads one line per question from a reader shared by the run.
type lineSource struct {
	mu sync.Mutex
	r  *bufio.Reader
}

// readLine returns the next line without its newline; ok is false at EOF
// with nothing read. A done ctx abandons the read (the goroutine ends with
// the next line or EOF).
func (s *lineSource) readLine(ctx context.Context) (line string, ok bool, err error) {
	type res struct {
		line string
		ok   bool
	}
	ch := make(chan res, 1)
	go func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		l, err := s.r.ReadString('\n')
		if err != nil && l == "" {
			ch <- res{}
			return
		}
		ch <- res{line: strings.TrimRight(l, "\r\n"), ok: true}
	}()
	select {
	case r := <-ch:
		return r.line, r.ok, nil
	case <-ctx.Done():
		return "", false, ctx.Err()
	}
}

type stdinAsker struct{ src *lineSource }

func (a stdinAsker) Ask(ctx context.Context, q tools.Question) (tools.Answer, error) {
	line, ok, err := a.src.readLine(ctx)
	if err != nil {
		return tools.Answer{}, err
	}
	if !ok {
		return tools.Answer{Status: "cancelled", Via: "stdin"}, nil
	}
	ans, matched := tools.MatchAnswer(q, line)
	if !matched {
		return tools.Answer{Status: "cancelled", Via: "stdin"}, nil
	}
	ans.Via = "stdin"
	return ans, nil
}

// terminalAsker prompts on the controlling terminal, re-asking until the
// answer fits the question; end of input (Ctrl-D) cancels.
type terminalAsker struct {
	open     func() (io.ReadWriteCloser, error)
	fallback *lineSource
	mu       sync.Mutex
}

func (a *terminalAsker) Ask(ctx context.Context, q tools.Question) (tools.Answer, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	tty, err := a.open()
	if err != nil {
		if a.fallback != nil {
			return stdinAsker{src: a.fallback}.Ask(ctx, q)
		}
		return tools.Answer{Status: "cancelled", Via: "none"}, nil
	}
	defer tty.Close()
	// Closing the terminal unblocks a pending read when the run is stopped.
	stop := context.AfterFunc(ctx, func() { tty.Close() })
	defer stop()

	src := &lineSource{r: bufio.NewReader(tty)}
	fmt.Fprint(tty, renderQuestion(q))
	for {
		fmt.Fprint(tty, "> ")
		line, ok, err := src.readLine(ctx)
		if err != nil {
			return tools.Answer{}, err
		}
		if !ok {
			fmt.Fprintln(tty)
			return tools.Answer{Status: "cancelled", Via: "terminal"}, nil
		}
		if ans, matched := tools.MatchAnswer(q, line); matched {
			ans.Via = "terminal"
			return ans, nil
		}
		if len(q.Options) > 0 && !q.AllowOther {
			fmt.Fprintf(tty, "Please choose 1-%d (Ctrl-D to cancel).\n", len(q.Options))
		} else {
			fmt.Fprintln(tty, "Please type an answer (Ctrl-D to cancel).")
		}
	}
}

func renderQuestion(q tools.Question) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n? %s\n", q.Question)
	for i, o := range q.Options {
		fmt.Fprintf(&b, "  %d) %s", i+1, o.Label)
		if o.Description != "" {
			fmt.Fprintf(&b, " — %s", o.Description)
		}
		if o.Value == q.DefaultValue && q.DefaultValue != "" {
			b.WriteString(" (default)")
		}
		b.WriteString("\n")
	}
	switch {
	case len(q.Options) > 0 && q.AllowOther:
		b.WriteString("  Pick a number or type your own answer")
	case len(q.Options) > 0:
		b.WriteString("  Pick a number")
	default:
		b.WriteString("  Type your answer")
	}
	if q.Placeholder != "" {
		fmt.Fprintf(&b, " (%s)", q.Placeholder)
	}
	if q.DefaultValue != "" {
		b.WriteString("; Enter for the default")
	}
	b.WriteString(".\n")
	return b.String()
}
