package search

import (
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestCleanText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"<strong>Go</strong> &amp; Rust", "Go & Rust"},
		{"a < b and c > d", "a < b and c > d"},
		{"line\none\ttab\x00nul", "line one tab nul"},
		{"bad \xff utf8", "bad \uFFFD utf8"},
		{"  spaced   out  ", "spaced out"},
		{"<!-- comment -->kept", "kept"},
	}
	for _, tt := range tests {
		if got := cleanText(tt.in, 100); got != tt.want {
			t.Errorf("cleanText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	long := strings.Repeat("é", 2000)
	got := cleanText(long, maxSnippetBytes)
	if len(got) > maxSnippetBytes || !utf8.ValidString(got) || !strings.HasSuffix(got, "…") {
		t.Errorf("truncated snippet: %d bytes, valid %v", len(got), utf8.ValidString(got))
	}
}

func TestNormalizeDate(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Mon, 10 Jun 2024 17:34:00 GMT", "2024-06-10T17:34:00Z"},
		{"2024-06-10T17:34:00+02:00", "2024-06-10T15:34:00Z"},
		{"2025-04-12T14:22:41", "2025-04-12T14:22:41"},
		{"2025-04-12T14:22:41.123456", "2025-04-12T14:22:41"},
		{"2025-04-12 14:22:41", "2025-04-12T14:22:41"},
		{"2025-04-12", "2025-04-12"},
		{"3 days ago", ""},
		{"", ""},
		{"0001-01-01T00:00:00", ""},
	}
	for _, tt := range tests {
		if got := normalizeDate(tt.in); got != tt.want {
			t.Errorf("normalizeDate(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	tests := []struct {
		h    http.Header
		want time.Duration
	}{
		{http.Header{"Retry-After": {"12"}}, 12 * time.Second},
		{http.Header{"X-Ratelimit-Reset": {"1, 1419704"}, "X-Ratelimit-Remaining": {"0, 1000"}}, time.Second},
		{http.Header{"X-Ratelimit-Reset": {"1, 86400"}, "X-Ratelimit-Remaining": {"3, 0"}}, 86400 * time.Second},
		{http.Header{"X-Ratelimit-Reset": {"5"}}, 5 * time.Second},
		{http.Header{"X-Ratelimit-Reset": {"soon"}}, 0},
		{http.Header{}, 0},
	}
	for _, tt := range tests {
		if got := retryAfter(tt.h); got != tt.want {
			t.Errorf("retryAfter(%v) = %v, want %v", tt.h, got, tt.want)
		}
	}
}

func TestFilterDomains(t *testing.T) {
	rs := []Result{{URL: "https://go.dev/a"}, {URL: "https://pkg.go.dev/b"}, {URL: "https://notgo.dev/c"}, {URL: "https://blog.go.dev/d"}}
	kept, dropped := filterDomains(rs, []string{"go.dev"}, []string{"blog.go.dev"})
	if len(kept) != 2 || dropped != 2 || kept[0].URL != "https://go.dev/a" || kept[1].URL != "https://pkg.go.dev/b" {
		t.Fatalf("kept %v, dropped %d", kept, dropped)
	}
}

func TestCleanMessage(t *testing.T) {
	got := cleanMessage("key tvly-abcDEF123 and SECRET\nline two\x1b[31m", "SECRET")
	if strings.Contains(got, "tvly-abc") || strings.Contains(got, "SECRET") || strings.ContainsAny(got, "\n\x1b") {
		t.Fatalf("cleanMessage = %q", got)
	}
	if len(cleanMessage(strings.Repeat("x", 5000))) > maxMessageBytes {
		t.Fatal("message not capped")
	}
}
