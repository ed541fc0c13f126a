package main

import (
	"context"
	"io"
	"strings"
	"testing"
)

func TestPlainText(t *testing.T) {
	md := "# A *title*\n\n> - [Link text](http://x/y_(z) \"t\") and ![alt](i.png)\n\n| a | b |\n|---|---|\n| 1 \\* 2 | x<br />y |\n\n```go\nfoo_bar *p\n```\n\nsnake_case **bold** <https://e.com/a>\n"
	got := normalize(plainText(md))
	want := "A title Link text and alt a b 1 * 2 x y foo_bar *p snake_case bold https://e.com/a"
	if got != want {
		t.Errorf("plainText:\n got %q\nwant %q", got, want)
	}
}

func TestScoreFirstSixSnippets(t *testing.T) {
	c := testCase{
		With:    []string{"kept  text", "lost", "a", "a", "a", "a", "seventh is ignored"},
		Without: []string{"menu", "footer"},
	}
	k, _ := score(c, normalize("kept\ntext a menu"))
	if k != (counts{tp: 5, fn: 1, fp: 1, tn: 1}) {
		t.Errorf("score = %+v", k)
	}
	if f := k.f1(); f != 10.0/12 {
		t.Errorf("F1 = %v", f)
	}
}

func TestMissingCorpus(t *testing.T) {
	err := run(context.Background(), options{dir: t.TempDir(), modes: []string{"auto"}}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "the corpus is missing") {
		t.Fatalf("err = %v", err)
	}
}
