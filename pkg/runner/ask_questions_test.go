package runner

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/tools"
)

// multi is a seed 004 ask: a single-select with a preview, then a
// multi-select.
var multi = tools.Question{CallID: "c9", AllowOther: true, Questions: []tools.QuestionItem{
	{Question: "Which database?", Header: "Database", Options: []tools.ItemOption{
		{Label: "SQLite", Description: "Embedded"},
		{Label: "PostgreSQL", Description: "A server", Preview: "docker run postgres"},
	}},
	{Question: "Which features?", Header: "Features", MultiSelect: true, Options: []tools.ItemOption{
		{Label: "Auth", Description: "Log in"}, {Label: "Search", Description: "Full text"}, {Label: "Export", Description: "CSV"},
	}},
}}

func TestTerminalAsksQuestionsOneAtATime(t *testing.T) {
	// ?2 shows a preview, 1,2 on a single select is asked again, 9 is out
	// of range, then 2; the multi-select takes "3, 1".
	tty, open := terminal("?2\n1,2\n9\n2\n3, 1\n")
	got, err := NewAsker(AskTTY, AskSources{Terminal: open}).Ask(context.Background(), multi)
	if err != nil {
		t.Fatal(err)
	}
	want := []tools.ItemAnswer{
		{Question: "Which database?", Header: "Database", Selected: []string{"PostgreSQL"}},
		{Question: "Which features?", Header: "Features", Selected: []string{"Auth", "Export"}},
	}
	if got.Status != tools.StatusAnswered || got.Via != "terminal" || !reflect.DeepEqual(got.Answers, want) {
		t.Fatalf("answer %+v", got)
	}
	out := tty.out.String()
	for _, s := range []string{
		"[Database] Which database? (1/2)\n  1) SQLite\n     Embedded\n  2) PostgreSQL [preview: ?2]\n     A server\n",
		"?N shows option N's preview",
		"--- 2) PostgreSQL ---\ndocker run postgres\n---\n",
		"Please choose one of 1-2 or type your own answer",
		"[Features] Which features? (2/2)",
		"Pick one or more numbers (like 1,3) or type your own answer.",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("terminal lacks %q:\n%s", s, out)
		}
	}
	if strings.Index(out, "[Features]") < strings.Index(out, "--- 2)") {
		t.Error("the second question was shown before the first was answered")
	}
}

func TestTerminalQuestionsOtherAndCtrlD(t *testing.T) {
	_, open := terminal("MariaDB, please\n")
	got, _ := NewAsker(AskTTY, AskSources{Terminal: open}).Ask(context.Background(), multi)
	if got.Status != tools.StatusCancelled || got.Via != "terminal" {
		t.Fatalf("Ctrl-D on the second question: %+v", got)
	}
	_, open = terminal("MariaDB, please\nsearch\n")
	got, _ = NewAsker(AskTTY, AskSources{Terminal: open}).Ask(context.Background(), multi)
	want := []tools.ItemAnswer{
		{Question: "Which database?", Header: "Database", Selected: []string{}, Custom: "MariaDB, please"},
		{Question: "Which features?", Header: "Features", Selected: []string{"Search"}},
	}
	if !reflect.DeepEqual(got.Answers, want) {
		t.Fatalf("answers %+v", got.Answers)
	}
}

func TestStdinQuestions(t *testing.T) {
	ctx := context.Background()
	a := NewAsker(AskStdin, AskSources{Stdin: strings.NewReader("1\n2 3\n7\nx\n")})
	got, _ := a.Ask(ctx, multi)
	if got.Via != "stdin" || len(got.Answers) != 2 || !reflect.DeepEqual(got.Answers[1].Selected, []string{"Search", "Export"}) {
		t.Fatalf("first ask: %+v", got)
	}
	// Nobody is there to ask again: a line that answers nothing cancels.
	if got, _ := a.Ask(ctx, multi); got.Status != tools.StatusCancelled {
		t.Fatalf("out of range: %+v", got)
	}
}

func TestDriverQuestions(t *testing.T) {
	ctx := context.Background()
	lines := `{"type":"ask.answer","call_id":"c9","answers":["2",{"selected":["Auth"],"custom":"SSO"}]}` + "\n" +
		`{"type":"ask.answer","call_id":"c10","answers":["1"]}` + "\n"
	var warnings []string
	d := NewDriver(strings.NewReader(lines), nil, func(_, msg string) { warnings = append(warnings, msg) })
	got, err := NewAsker(AskAuto, AskSources{Driver: d}).Ask(ctx, multi)
	if err != nil {
		t.Fatal(err)
	}
	want := []tools.ItemAnswer{
		{Question: "Which database?", Header: "Database", Selected: []string{"PostgreSQL"}},
		{Question: "Which features?", Header: "Features", Selected: []string{"Auth"}, Custom: "SSO"},
	}
	if got.Via != "driver" || !reflect.DeepEqual(got.Answers, want) {
		t.Fatalf("answer %+v", got)
	}
	q := multi
	q.CallID = "c10"
	if got, _ := NewAsker(AskAuto, AskSources{Driver: d}).Ask(ctx, q); got.Status != tools.StatusCancelled {
		t.Fatalf("one answer for two questions: %+v", got)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "do not fit the 2 questions") {
		t.Fatalf("warnings %q", warnings)
	}
}

func TestPresetAnswerQuestions(t *testing.T) {
	a := PresetAnswer("c9", `["SQLite", {"selected":["Export"]}]`, nil)
	got, _ := a.Ask(context.Background(), multi)
	if got.Via != "flag" || len(got.Answers) != 2 || got.Answers[1].Selected[0] != "Export" {
		t.Fatalf("preset %+v", got)
	}
}

func TestFailAndCancelQuestions(t *testing.T) {
	if got, _ := NewAsker(AskCancel, AskSources{}).Ask(context.Background(), multi); got.Status != tools.StatusCancelled {
		t.Fatalf("cancel: %+v", got)
	}
	if _, err := NewAsker(AskFail, AskSources{}).Ask(context.Background(), multi); err != tools.ErrInputRequired {
		t.Fatalf("fail: %v", err)
	}
}
