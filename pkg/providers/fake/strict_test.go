package fake

import (
	"net/http"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tidwall/gjson"
)

// The fake refuses what each real API refuses, in that API's error envelope.
func TestStrictUnknownFieldsRefused(t *testing.T) {
	fixturesOrSkip(t)
	for _, tt := range []struct {
		name, path, body, msgPath, want string
	}{
		{"chat top level", chatPath, `{"model":"m","messages":[{"role":"user","content":"hi"}],"bogus":1}`, "error.message", "Unrecognized request argument supplied: bogus"},
		{"responses top level", responsesPath, `{"model":"m","input":"hi","bogus":true}`, "error.message", "Unrecognized request argument supplied: bogus"},
		{"anthropic top level", anthropicPath, `{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"hi"}],"bogus":1}`, "error.message", "bogus: Extra inputs are not permitted"},
		{"gemini top level", geminiPath, `{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"bogus":1}`, "error.message", `Unknown name "bogus"`},
		{"gemini nested", geminiPath, `{"contents":[{"role":"user","parts":[{"text":"hi","bogus":1}]}]}`, "error.status", "INVALID_ARGUMENT"},
	} {
		srv := NewServer(t)
		srv.Enqueue(Reply{Text: "never"})
		resp := postTo(t, srv.URL, tt.path, tt.body)
		body := readBody(t, resp)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(gjson.Get(body, tt.msgPath).String(), tt.want) {
			t.Errorf("%s: status %d body %s", tt.name, resp.StatusCode, body)
		}
		if srv.Pending() != 1 {
			t.Errorf("%s: a refused request consumed the reply", tt.name)
		}
	}
}

func TestStrictGeminiTakesSnakeCase(t *testing.T) {
	fixturesOrSkip(t)
	srv := NewServer(t)
	srv.Enqueue(Reply{Text: "ok"})
	resp := postTo(t, srv.URL, geminiPath, `{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"generation_config":{"max_output_tokens":5}}`)
	if body := readBody(t, resp); resp.StatusCode != http.StatusOK {
		t.Fatalf("snake_case names refused: %d %s", resp.StatusCode, body)
	}
}

func TestStrictRoutesAndKeys(t *testing.T) {
	fixturesOrSkip(t)
	valid := map[string]string{
		chatPath:      `{"model":"m","messages":[{"role":"user","content":"hi"}]}`,
		anthropicPath: `{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`,
		geminiPath:    `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`,
	}
	for _, tt := range []struct {
		name, method, path string
		drop               string // header left out
		status             int
		want               string
	}{
		{"chat without key", http.MethodPost, chatPath, "Authorization", 401, "You didn't provide an API key"},
		{"chat by GET", http.MethodGet, chatPath, "", 404, "Invalid URL (GET /chat/completions)"},
		{"chat at a wrong path", http.MethodPost, "/chat/completion", "", 404, "Invalid URL"},
		{"anthropic without key", http.MethodPost, anthropicPath, "X-Api-Key", 401, "x-api-key header is required"},
		{"anthropic without version", http.MethodPost, anthropicPath, "Anthropic-Version", 400, "anthropic-version"},
		{"anthropic without /v1", http.MethodPost, "/messages", "", 404, "Not Found"},
		{"gemini without key", http.MethodPost, geminiPath, "X-Goog-Api-Key", 403, "unregistered callers"},
	} {
		srv := NewServer(t)
		srv.Enqueue(Reply{Text: "never"})
		body := valid[tt.path]
		if body == "" {
			body = valid[chatPath]
		}
		req, _ := http.NewRequest(tt.method, srv.URL+tt.path, strings.NewReader(body))
		authorize(req)
		req.Header.Del(tt.drop)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got := readBody(t, resp)
		if resp.StatusCode != tt.status || !strings.Contains(gjson.Get(got, "error.message").String(), tt.want) {
			t.Errorf("%s: status %d body %s", tt.name, resp.StatusCode, got)
		}
		if srv.Pending() != 1 {
			t.Errorf("%s: a refused request consumed the reply", tt.name)
		}
	}
	// Gemini also takes the key as ?key=.
	srv := NewServer(t)
	srv.Enqueue(Reply{Text: "ok"})
	req, _ := http.NewRequest(http.MethodPost, srv.URL+geminiPath+"?key=k", strings.NewReader(valid[geminiPath]))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if body := readBody(t, resp); resp.StatusCode != 200 {
		t.Fatalf("?key= refused: %d %s", resp.StatusCode, body)
	}
}

func TestLaxChecksNothing(t *testing.T) {
	srv := NewServer(t)
	srv.Lax()
	srv.Enqueue(Reply{Text: "ok"})
	resp, err := http.Post(srv.URL+chatPath, "application/json", strings.NewReader(`{"whatever":1}`))
	if err != nil {
		t.Fatal(err)
	}
	if body := readBody(t, resp); resp.StatusCode != 200 || !strings.Contains(body, "ok") {
		t.Fatalf("lax fake refused: %d %s", resp.StatusCode, body)
	}
}

// A scripted 429 carries what the real API's does.
func TestRateLimitLooksReal(t *testing.T) {
	fixturesOrSkip(t)
	srv := NewServer(t)
	srv.Enqueue(Reply{Status: 429}, Reply{Status: 429, Error: &APIError{Message: "slow down"}})
	for i := range 2 {
		resp := post(t, t.Context(), srv.URL, chatReq)
		body := readBody(t, resp)
		if resp.StatusCode != 429 || resp.Header.Get("X-Ratelimit-Remaining-Requests") != "0" || resp.Header.Get("X-Ratelimit-Limit-Requests") == "" || resp.Header.Get("X-Request-Id") == "" {
			t.Fatalf("429 %d headers %v", i, resp.Header)
		}
		if gjson.Get(body, "error.code").String() != "rate_limit_exceeded" || gjson.Get(body, "error.type").String() != "requests" {
			t.Fatalf("429 %d body %s", i, body)
		}
	}
	srv = NewServer(t)
	srv.Enqueue(Reply{Status: 429}, Reply{Status: 429, Headers: map[string]string{"retry-after": "7"}})
	for _, want := range []string{"1", "7"} {
		resp := postTo(t, srv.URL, anthropicPath, `{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`)
		body := readBody(t, resp)
		if resp.Header.Get("Retry-After") != want || resp.Header.Get("Anthropic-Ratelimit-Requests-Remaining") != "0" || gjson.Get(body, "error.type").String() != "rate_limit_error" {
			t.Fatalf("anthropic 429 headers %v body %s", resp.Header, body)
		}
	}
}

// Unions the specs write as oneOf but whose branches overlap are checked as
// anyOf: a Responses user message with content parts matches two branches,
// and the real API takes it. A value matching no branch is still refused.
func TestOverlappingUnionsAccepted(t *testing.T) {
	fixturesOrSkip(t)
	v := &Validator{}
	ok := `{"model":"gpt-5","input":[{"role":"user","content":[{"type":"input_text","text":"What is this?"},` +
		`{"type":"input_image","image_url":"data:image/png;base64,iVBORw0KGgo=","detail":"auto"}]}]}`
	if err := v.Validate(providers.ProtocolOpenAIResponses, []byte(ok)); err != nil {
		t.Fatalf("a user message with text and image parts was refused: %v", err)
	}
	bad := `{"model":"gpt-5","input":[{"role":"user","content":[{"type":"input_nonsense","text":"x"}]}]}`
	if err := v.Validate(providers.ProtocolOpenAIResponses, []byte(bad)); err == nil {
		t.Fatal("a content part of no known type was accepted")
	}
}
