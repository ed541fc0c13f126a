package code

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tavo-cli/tavo/pkg/fetch"
	"github.com/tavo-cli/tavo/pkg/files"
	"github.com/tavo-cli/tavo/pkg/resources"
	"github.com/tavo-cli/tavo/pkg/search"
	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/tools"
	"github.com/tavo-cli/tavo/pkg/tools/builtin"
)

// TestDescriptionSize pins the size of tavo_code's description with every
// built-in tool listed: at most 2 KB (docs/performance.md).
func TestDescriptionSize(t *testing.T) {
	cat, err := builtin.Catalog(builtin.Deps{
		Fetch:     &fetch.Engine{},
		Search:    &search.Runner{},
		Files:     &files.Store{},
		Resources: resources.New(nil),
		State:     func(context.Context) (*store.Store, error) { return nil, nil },
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	d := New(Options{Catalog: cat, Direct: []string{"tavo_ask_user", "tavo_read", "tavo_tool_search"}}).Spec().Description
	t.Logf("%d bytes:\n%s", len(d), d)
	if len(d) > 2048 {
		t.Errorf("tavo_code's description is %d bytes, over 2 KB", len(d))
	}
	for _, want := range []string{"\ntavo_file_: ", " save(name, content, options?)", "\ntavo_var_: ", "30 s, 64 MiB, 64 calls"} {
		if !strings.Contains(d, want) {
			t.Errorf("the description lacks %q", want)
		}
	}
	for _, direct := range []string{"tavo_read(", "tavo_ask_user(", "tavo_code("} {
		if strings.Contains(d, direct) {
			t.Errorf("the description lists %s, which the model calls directly", direct)
		}
	}
}

func TestFamily(t *testing.T) {
	for in, want := range map[string]string{
		"tavo_file_save":  "tavo_file_",
		"tavo_subagent":   "tavo_subagent",
		"tavo_web_search": "tavo_web_",
		"github__issues":  "github__",
		"gh__list_issues": "gh__",
		"plain":           "plain",
	} {
		if got := family(in); got != want {
			t.Errorf("family(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCheckTool(t *testing.T) {
	if err := tools.CheckTool(New(Options{})); err != nil {
		t.Fatal(err)
	}
}

func TestSummary(t *testing.T) {
	for in, want := range map[string]string{
		"Save a file. More text.":          "Save a file",
		"Read one page (GET), as Markdown": "Read one page",
		"":                                 "",
		strings.Repeat("word ", 20):        "word word word word word word word…",
	} {
		if got := summary(in); got != want {
			t.Errorf("summary(%q) = %q, want %q", in, got, want)
		}
	}
	// A long word is cut inside, never inside a character.
	if got := summary("Ünïcödé " + strings.Repeat("é", 40)); !utf8.ValidString(got) || len(got) > maxSummary+len("…") {
		t.Errorf("summary cut badly: %q", got)
	}
}

// TestRunWithoutHook refuses a program when the run offers no inner calls.
func TestRunWithoutHook(t *testing.T) {
	_, err := New(Options{}).Run(context.Background(), &tools.Call{Args: json.RawMessage(`{"code":"return 1"}`), Env: &tools.Env{}})
	if te := tools.AsError(err); te.Code != tools.CodeInternalError {
		t.Fatalf("err = %v", err)
	}
}
