package runner

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
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
	if len(q.Questions) > 0 {
		return a.askItems(ctx, q)
	}
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

// askItems reads one line per question of seed 004's shape; a line that
// answers nothing, or the end of input, cancels the whole ask.
func (a stdinAsker) askItems(ctx context.Context, q tools.Question) (tools.Answer, error) {
	ans := tools.Answer{Status: tools.StatusAnswered, Via: "stdin"}
	for _, item := range q.Questions {
		line, ok, err := a.src.readLine(ctx)
		if err != nil {
			return tools.Answer{}, err
		}
		got, matched := tools.MatchItem(item, line)
		if !ok || !matched {
			return tools.Answer{Status: tools.StatusCancelled, Via: "stdin"}, nil
		}
		ans.Answers = append(ans.Answers, got)
	}
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
	if len(q.Questions) > 0 {
		return askItemsOnTerminal(ctx, tty, src, q)
	}
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

// askItemsOnTerminal asks seed 004's questions one at a time: the header
// as a tag, numbered options with their descriptions under them, and
// "?N" to show option N's preview. Unfit input is asked again; end of
// input (Ctrl-D) cancels the whole ask.
func askItemsOnTerminal(ctx context.Context, tty io.Writer, src *lineSource, q tools.Question) (tools.Answer, error) {
	ans := tools.Answer{Status: tools.StatusAnswered, Via: "terminal"}
	for i, item := range q.Questions {
		fmt.Fprint(tty, renderItem(item, i, len(q.Questions)))
		for {
			fmt.Fprint(tty, "> ")
			line, ok, err := src.readLine(ctx)
			if err != nil {
				return tools.Answer{}, err
			}
			if !ok {
				fmt.Fprintln(tty)
				return tools.Answer{Status: tools.StatusCancelled, Via: "terminal"}, nil
			}
			if n, isPreview := previewRequest(line); isPreview {
				fmt.Fprint(tty, renderPreview(item, n))
				continue
			}
			if got, matched := tools.MatchItem(item, line); matched {
				ans.Answers = append(ans.Answers, got)
				break
			}
			if item.MultiSelect {
				fmt.Fprintf(tty, "Please choose from 1-%d (several numbers allowed, like 1,3) or type your own answer (Ctrl-D to cancel).\n", len(item.Options))
			} else {
				fmt.Fprintf(tty, "Please choose one of 1-%d or type your own answer (Ctrl-D to cancel).\n", len(item.Options))
			}
		}
	}
	return ans, nil
}

// previewRequest reads "?N", the request to see option N's preview.
func previewRequest(line string) (int, bool) {
	s := strings.TrimSpace(line)
	if !strings.HasPrefix(s, "?") {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimSpace(s[1:]))
	if err != nil {
		return 0, false
	}
	return n, true
}

// renderItem draws one question of seed 004's shape.
func renderItem(item tools.QuestionItem, i, total int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n[%s] %s", item.Header, item.Question)
	if total > 1 {
		fmt.Fprintf(&b, " (%d/%d)", i+1, total)
	}
	b.WriteString("\n")
	previews := false
	for j, o := range item.Options {
		fmt.Fprintf(&b, "  %d) %s", j+1, o.Label)
		if o.Preview != "" {
			fmt.Fprintf(&b, " [preview: ?%d]", j+1)
			previews = true
		}
		fmt.Fprintf(&b, "\n     %s\n", o.Description)
	}
	if item.MultiSelect {
		b.WriteString("  Pick one or more numbers (like 1,3)")
	} else {
		b.WriteString("  Pick a number")
	}
	b.WriteString(" or type your own answer")
	if previews {
		b.WriteString("; ?N shows option N's preview")
	}
	b.WriteString(".\n")
	return b.String()
}

// renderPreview shows option n's preview, or says why it cannot.
func renderPreview(item tools.QuestionItem, n int) string {
	if n < 1 || n > len(item.Options) {
		return fmt.Sprintf("There is no option %d.\n", n)
	}
	o := item.Options[n-1]
	if o.Preview == "" {
		return fmt.Sprintf("Option %d has no preview.\n", n)
	}
	return fmt.Sprintf("--- %d) %s ---\n%s\n---\n", n, o.Label, o.Preview)
}

// itemAnswers reads an answers array (from a driver or --answer) against
// q's questions: one entry per question, each a typed line or an object
// {selected, custom?}. ok is false when it does not fit.
func itemAnswers(q tools.Question, raws []json.RawMessage) ([]tools.ItemAnswer, bool) {
	if len(raws) != len(q.Questions) {
		return nil, false
	}
	out := make([]tools.ItemAnswer, len(raws))
	for i, raw := range raws {
		a, ok := tools.ItemAnswerFromJSON(q.Questions[i], raw)
		if !ok {
			return nil, false
		}
		out[i] = a
	}
	return out, true
}
