package main

import (
	"math"
	"strings"
	"testing"
)

func TestCompareCountsBagsOfWords(t *testing.T) {
	s := compare([]string{"a", "b", "b", "x"}, []string{"a", "b", "c", "d"})
	// common = a, b (the second b has no partner): P = 2/4, R = 2/4.
	if s.p != 0.5 || s.r != 0.5 || math.Abs(s.f-0.5) > 1e-9 {
		t.Fatalf("score %+v", s)
	}
	if s := compare(nil, []string{"a"}); s.p != 0 || s.r != 0 || s.f != 0 {
		t.Fatalf("empty prediction %+v", s)
	}
	if s := compare(nil, nil); s.f != 1 {
		t.Fatalf("both empty %+v", s)
	}
}

func TestMarkdownIsStrippedToReaderText(t *testing.T) {
	md := "# Title\n\nSee [the docs](https://example.com/a_(b) \"tip\") and ![alt text](/i.png).\n[![logo](/l.png)](/home) <https://x.y/z>"
	got := strings.Join(words(markdownText(md)), " ")
	if got != "title see the docs and" {
		t.Fatalf("words %q", got)
	}
}

func TestWordsSplitsCJKPerCharacter(t *testing.T) {
	if got := strings.Join(words("Hello, 世界! Ünïcode"), " "); got != "hello 世 界 ünïcode" {
		t.Fatalf("words %q", got)
	}
}

func TestHTMLTextBreaksOnlyAtBlocks(t *testing.T) {
	got := strings.Join(words(htmlText([]byte("<p>Cred<span>it</span><b>Kevin</b></p><p>next</p><script>x()</script>"))), " ")
	if got != "creditkevin next" {
		t.Fatalf("words %q", got)
	}
}
