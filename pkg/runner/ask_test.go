package runner

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/tools"
)

// fakeTTY is a terminal: what the person types, and what tavo printed.
type fakeTTY struct {
	in     io.Reader
	out    bytes.Buffer
	closed bool
}

func (f *fakeTTY) Read(p []byte) (int, error)  { return f.in.Read(p) }
func (f *fakeTTY) Write(p []byte) (int, error) { return f.out.Write(p) }
func (f *fakeTTY) Close() error                { f.closed = true; return nil }

func terminal(typed string) (*fakeTTY, func() (io.ReadWriteCloser, error)) {
	tty := &fakeTTY{in: strings.NewReader(typed)}
	return tty, func() (io.ReadWriteCloser, error) { return tty, nil }
}

func noTerminal() (io.ReadWriteCloser, error) { return nil, errors.New("no tty") }

var pick = tools.Question{
	CallID: "c1", Question: "Which city?",
	Options:      []tools.Option{{Value: "paris", Label: "Paris", Description: "France"}, {Value: "rome", Label: "Rome"}},
	DefaultValue: "rome", Placeholder: "a city",
}

func TestParseAskMode(t *testing.T) {
	for in, want := range map[string]AskMode{"": AskAuto, "auto": AskAuto, "tty": AskTTY, "stdin": AskStdin, "cancel": AskCancel, "fail": AskFail} {
		if got, err := ParseAskMode(in); err != nil || got != want {
			t.Errorf("ParseAskMode(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseAskMode("always"); err == nil || !strings.Contains(err.Error(), "want auto, tty, stdin, cancel or fail") {
		t.Errorf("bad mode: %v", err)
	}
}

func TestAskModesWithoutSources(t *testing.T) {
	ctx := context.Background()
	for _, mode := range []AskMode{AskCancel, AskTTY, AskStdin, AskAuto} {
		a, err := NewAsker(mode, AskSources{}).Ask(ctx, pick)
		if err != nil || a.Status != tools.StatusCancelled || a.Via != "none" && a.Via != "stdin" {
			t.Errorf("%s with nothing to ask: %+v %v", mode, a, err)
		}
	}
	if _, err := NewAsker(AskFail, AskSources{}).Ask(ctx, pick); !errors.Is(err, tools.ErrInputRequired) {
		t.Errorf("fail mode: %v", err)
	}
}

func TestStdinAsker(t *testing.T) {
	ctx := context.Background()
	a := NewAsker(AskStdin, AskSources{Stdin: strings.NewReader("2\nberlin\n\n")})
	if got, _ := a.Ask(ctx, pick); got.Answer != "rome" || got.Source != tools.AnswerSourceOption || got.Via != "stdin" {
		t.Fatalf("by number: %+v", got)
	}
	// A strict question's unmatched line is a cancellation, not a re-ask:
	// nobody is there to ask again.
	if got, _ := a.Ask(ctx, pick); got.Status != tools.StatusCancelled {
		t.Fatalf("unmatched: %+v", got)
	}
	if got, _ := a.Ask(ctx, pick); got.Answer != "rome" {
		t.Fatalf("blank takes the default: %+v", got)
	}
	if got, _ := a.Ask(ctx, pick); got.Status != tools.StatusCancelled || got.Via != "stdin" {
		t.Fatalf("end of input: %+v", got)
	}
	// Under auto, stdin is used when it is all there is.
	if got, _ := NewAsker(AskAuto, AskSources{Stdin: strings.NewReader("paris\n")}).Ask(ctx, pick); got.Answer != "paris" {
		t.Fatalf("auto via stdin: %+v", got)
	}
	// A stopped run stops waiting for a line.
	pr, pw := io.Pipe()
	defer pw.Close()
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := NewAsker(AskStdin, AskSources{Stdin: pr}).Ask(cctx, pick); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

func TestTerminalAskerReasksUntilTheAnswerFits(t *testing.T) {
	tty, open := terminal("9\nberlin\n1\n")
	got, err := NewAsker(AskTTY, AskSources{Terminal: open}).Ask(context.Background(), pick)
	if err != nil || got.Answer != "paris" || got.Via != "terminal" {
		t.Fatalf("answer %+v %v", got, err)
	}
	out := tty.out.String()
	for _, want := range []string{"? Which city?", "1) Paris — France", "2) Rome (default)", "Pick a number (a city); Enter for the default.", "Please choose 1-2 (Ctrl-D to cancel)."} {
		if !strings.Contains(out, want) {
			t.Errorf("terminal output lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "> ") != 3 || !tty.closed {
		t.Errorf("prompts %d, closed %v", strings.Count(out, "> "), tty.closed)
	}
}

func TestTerminalAskerFreeTextAndCtrlD(t *testing.T) {
	free := tools.Question{Question: "Name?"}
	tty, open := terminal("\n")
	a := NewAsker(AskAuto, AskSources{Terminal: open})
	if got, _ := a.Ask(context.Background(), free); got.Status != tools.StatusCancelled || got.Via != "terminal" {
		t.Fatalf("blank then Ctrl-D: %+v", got)
	}
	if out := tty.out.String(); !strings.Contains(out, "Type your answer.") || !strings.Contains(out, "Please type an answer (Ctrl-D to cancel).") {
		t.Fatalf("output %q", out)
	}
	other := tools.Question{Question: "Where?", Options: []tools.Option{{Value: "x", Label: "X"}}, AllowOther: true}
	tty, open = terminal("Lyon\n")
	if got, _ := NewAsker(AskTTY, AskSources{Terminal: open}).Ask(context.Background(), other); got.Answer != "Lyon" || got.Source != tools.AnswerSourceCustom {
		t.Fatalf("custom answer %+v", got)
	}
	if !strings.Contains(tty.out.String(), "Pick a number or type your own answer.") {
		t.Fatalf("output %q", tty.out.String())
	}
}

func TestTerminalThatCannotOpenFallsBackToStdin(t *testing.T) {
	ctx := context.Background()
	got, _ := NewAsker(AskAuto, AskSources{Terminal: noTerminal, Stdin: strings.NewReader("rome\n")}).Ask(ctx, pick)
	if got.Answer != "rome" || got.Via != "stdin" {
		t.Fatalf("fallback %+v", got)
	}
	if got, _ := NewAsker(AskTTY, AskSources{Terminal: noTerminal}).Ask(ctx, pick); got.Status != tools.StatusCancelled || got.Via != "none" {
		t.Fatalf("no fallback %+v", got)
	}
}

func TestAutoPrefersTheDriver(t *testing.T) {
	d := NewDriver(strings.NewReader(`{"type":"ask.answer","call_id":"c1","answer":"paris"}`+"\n"), nil, nil)
	_, open := terminal("2\n")
	got, _ := NewAsker(AskAuto, AskSources{Driver: d, Terminal: open}).Ask(context.Background(), pick)
	if got.Answer != "paris" || got.Via != "driver" {
		t.Fatalf("auto with a driver: %+v", got)
	}
}

func TestConfirmers(t *testing.T) {
	ctx := context.Background()
	req := tools.ConfirmRequest{CallID: "k", Tool: "deploy", ToolID: "cmd/deploy", DisplayName: "Deploy", Arguments: []byte(`{"env":"` + strings.Repeat("p", 600) + `"}`)}
	if v, _ := NewConfirmer(true, AskSources{}).Confirm(ctx, req); !v.Allow || v.Via != "flag" {
		t.Fatalf("--yes %+v", v)
	}
	if v, _ := NewConfirmer(false, AskSources{}).Confirm(ctx, req); v.Allow || v.Via != "none" {
		t.Fatalf("nobody to ask %+v", v)
	}
	for typed, allow := range map[string]bool{"y\n": true, "YES\n": true, "n\n": false, "sure\n": false, "": false} {
		tty, open := terminal(typed)
		v, err := NewConfirmer(false, AskSources{Terminal: open}).Confirm(ctx, req)
		if err != nil || v.Allow != allow || v.Via != "terminal" {
			t.Errorf("typed %q: %+v %v", typed, v, err)
		}
		out := tty.out.String()
		if !strings.Contains(out, "run Deploy (deploy) [cmd/deploy]") || !strings.Contains(out, "…") || !strings.Contains(out, "Allow? [y/N]") {
			t.Errorf("prompt %q", out)
		}
	}
	if v, _ := NewConfirmer(false, AskSources{Terminal: noTerminal}).Confirm(ctx, req); v.Allow || v.Via != "none" {
		t.Fatalf("terminal that cannot open %+v", v)
	}
}
