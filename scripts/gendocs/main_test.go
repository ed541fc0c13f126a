package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestManPagesHaveTheirOwnTitles generates the pages and checks that each
// is titled after its command (tavo-session-list.1 is TAVO-SESSION-LIST),
// not all TAVO, and that the bash script is tavo's own.
func TestManPagesHaveTheirOwnTitles(t *testing.T) {
	out := t.TempDir()
	if err := generate(out); err != nil {
		t.Fatal(err)
	}
	pages, _ := filepath.Glob(filepath.Join(out, "man", "*.1"))
	if len(pages) < 50 {
		t.Fatalf("%d man pages", len(pages))
	}
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		want := `.TH "` + strings.ToUpper(strings.TrimSuffix(filepath.Base(p), ".1")) + `" "1"`
		if !strings.Contains(string(b), want) {
			t.Errorf("%s: no %s", filepath.Base(p), want)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "man", "tavo-environment.1")); err != nil {
		t.Error("no page for tavo help environment")
	}
	bash, _ := os.ReadFile(filepath.Join(out, "completions", "tavo.bash"))
	if !strings.Contains(string(bash), "__tavo_filedir") {
		t.Error("completions/tavo.bash is cobra's script, which needs bash-completion")
	}
}
