package providers

import (
	"net/url"
	"testing"
)

func TestBaseURL(t *testing.T) {
	for _, tt := range []struct{ base, want string }{
		{"", "https://api.example.com/v1"},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080"},
		{"http://127.0.0.1:8080/", "http://127.0.0.1:8080"},
		{"https://proxy.example/openai/v1//", "https://proxy.example/openai/v1"},
		{"https://proxy.example/a%2Fb/", "https://proxy.example/a/b"},
		{"https://proxy.example/v1?key=k", "https://proxy.example/v1?key=k"},
	} {
		u, err := BaseURL(ProtocolOpenAI, tt.base, "https://api.example.com/v1")
		if err != nil || u.String() != tt.want {
			t.Errorf("BaseURL(%q) = %v, %v; want %s", tt.base, u, err, tt.want)
		}
	}
}

func TestBaseURLRejectsRelative(t *testing.T) {
	for _, base := range []string{"localhost:8080?key=sk-SECRET", "/v1", "api.example.com", "http://[::1"} {
		_, err := BaseURL(ProtocolAnthropic, base, "https://api.anthropic.com")
		if err == nil {
			t.Errorf("BaseURL(%q) gave no error", base)
			continue
		}
		want := "the anthropic base URL must be an absolute URL such as https://api.anthropic.com"
		if err.Error() != want {
			t.Errorf("BaseURL(%q) error %q, want %q", base, err, want)
		}
	}
}

func TestJoinURL(t *testing.T) {
	for _, tt := range []struct {
		base, path string
		query      map[string]string
		want       string
	}{
		{"https://h/v1", "/chat/completions", nil, "https://h/v1/chat/completions"},
		{"https://h", "/v1/messages", map[string]string{"api-version": "2024-10-21"}, "https://h/v1/messages?api-version=2024-10-21"},
		{"https://h/v1?b=2&a=1", "/responses", map[string]string{"b": "3", "c": "x y"}, "https://h/v1/responses?a=1&b=3&c=x+y"},
		// Without query parameters to add, the base's query is kept as written.
		{"https://h/v1?b=2&a=1", "/responses", nil, "https://h/v1/responses?b=2&a=1"},
	} {
		base, err := url.Parse(tt.base)
		if err != nil {
			t.Fatal(err)
		}
		before := base.String()
		if got := JoinURL(base, tt.path, tt.query); got != tt.want {
			t.Errorf("JoinURL(%q, %q, %v) = %q, want %q", tt.base, tt.path, tt.query, got, tt.want)
		}
		if base.String() != before {
			t.Errorf("JoinURL changed its base to %s", base)
		}
	}
}
