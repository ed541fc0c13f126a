package fake

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

const (
	geminiStreamPath = "/v1beta/models/gemini-test:streamGenerateContent"
	geminiPath       = "/v1beta/models/gemini-test:generateContent"
)

func TestGeminiStreamRenderedLikeTheRealAPI(t *testing.T) {
	sch := component(t, "gemini.trimmed.json", "GenerateContentResponse")
	srv := NewServer(t)
	srv.Enqueue(scriptedVariety())
	resp := postTo(t, srv.URL, geminiStreamPath+"?alt=sse", `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`)
	body := readBody(t, resp)
	if !strings.HasSuffix(body, "\r\n\r\n") || strings.Contains(strings.ReplaceAll(body, "\r\n", ""), "\n") {
		t.Fatalf("not CRLF-framed: %q", body)
	}
	if strings.Contains(body, "event:") || strings.Contains(body, "[DONE]") {
		t.Fatalf("Gemini streams have no event names and no end marker: %q", body)
	}
	events := sseEvents(t, body)
	var thought, text strings.Builder
	var calls []string
	for i, ev := range events {
		if err := validateWith(sch, []byte(ev.Data)); err != nil {
			t.Fatalf("chunk %d %s breaks GenerateContentResponse: %v", i, ev.Data, err)
		}
		if !strings.Contains(ev.Data, `"candidates": [`) {
			t.Fatalf("chunk not printed like Gemini's (a space after colons): %s", ev.Data)
		}
		c := gjson.Get(ev.Data, "candidates.0")
		if fr := c.Get("finishReason"); fr.Exists() && i != len(events)-1 {
			t.Fatalf("finishReason before the last chunk: %s", ev.Data)
		}
		for _, p := range c.Get("content.parts").Array() {
			switch {
			case p.Get("thought").Bool():
				thought.WriteString(p.Get("text").String())
			case p.Get("functionCall").Exists():
				fc := p.Get("functionCall")
				calls = append(calls, fc.Get("name").String()+fc.Get("args|@ugly").Raw+"|"+p.Get("thoughtSignature").String())
				if fc.Get("id").Exists() {
					t.Fatalf("generateContent function calls carry no id: %s", p.Raw)
				}
			default:
				text.WriteString(p.Get("text").String())
			}
		}
	}
	last := gjson.Parse(events[len(events)-1].Data)
	if last.Get("candidates.0.finishReason").String() != "STOP" {
		t.Fatalf("last chunk %s", last.Raw)
	}
	u := last.Get("usageMetadata")
	if u.Get("promptTokenCount").Int() != 50 || u.Get("candidatesTokenCount").Int() != 15 || u.Get("thoughtsTokenCount").Int() != 5 || u.Get("cachedContentTokenCount").Int() != 10 {
		t.Fatalf("usage %s", u.Raw)
	}
	if thought.String() != "Let me think." || text.String() != "Calling tools." {
		t.Fatalf("thought %q text %q", thought.String(), text.String())
	}
	want := []string{`f{"a":1}|` + ThoughtSignature(1), `g{"b":"x"}|`}
	if strings.Join(calls, " ") != strings.Join(want, " ") {
		t.Fatalf("calls %q, want %q (whole, the first one signed)", calls, want)
	}
}

func TestGeminiJSONRenderedLikeTheRealAPI(t *testing.T) {
	sch := component(t, "gemini.trimmed.json", "GenerateContentResponse")
	srv := NewServer(t)
	srv.Enqueue(scriptedVariety())
	body := readBody(t, postTo(t, srv.URL, geminiPath, `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`))
	if err := validateWith(sch, []byte(body)); err != nil {
		t.Fatalf("%s breaks GenerateContentResponse: %v", body, err)
	}
	for path, want := range map[string]string{
		"candidates.0.content.role":                        "model",
		"candidates.0.content.parts.0.thought":             "true",
		"candidates.0.content.parts.0.text":                "Let me think.",
		"candidates.0.content.parts.1.text":                "Calling tools.",
		"candidates.0.content.parts.2.functionCall.name":   "f",
		"candidates.0.content.parts.2.thoughtSignature":    ThoughtSignature(1),
		"candidates.0.content.parts.3.functionCall.args.b": "x",
		"candidates.0.finishReason":                        "STOP",
		"modelVersion":                                     "gemini-test",
		"usageMetadata.totalTokenCount":                    "70",
	} {
		if got := gjson.Get(body, path).String(); got != want {
			t.Errorf("%s = %q, want %q", path, got, want)
		}
	}
}

func TestGeminiRetryAfterBecomesRetryInfo(t *testing.T) {
	srv := NewServer(t)
	srv.Enqueue(Reply{Status: 429, Headers: map[string]string{"Retry-After": "1.5"}, Error: &APIError{Message: "quota"}})
	resp := postTo(t, srv.URL, geminiPath, `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`)
	body := readBody(t, resp)
	if resp.Header.Get("Retry-After") != "" {
		t.Fatal("Gemini sends no Retry-After header")
	}
	e := gjson.Get(body, "error")
	if resp.StatusCode != 429 || e.Get("status").String() != "RESOURCE_EXHAUSTED" || e.Get("code").Int() != 429 {
		t.Fatalf("status %d body %s", resp.StatusCode, body)
	}
	if d := e.Get(`details.#(@type=="type.googleapis.com/google.rpc.RetryInfo").retryDelay`).String(); d != "1.5s" {
		t.Fatalf("retryDelay %q in %s", d, body)
	}
}

func TestGeminiStreamErrorAndNoDone(t *testing.T) {
	srv := NewServer(t)
	srv.Enqueue(
		Reply{Steps: []Step{{Text: "Hel"}, {Error: &APIError{Message: "boom"}}, {Text: "never"}}},
		Reply{Text: "cut short", NoDone: true},
	)
	events := sseEvents(t, readBody(t, postTo(t, srv.URL, geminiStreamPath, `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`)))
	if len(events) != 2 || gjson.Get(events[1].Data, "error.status").String() != "INTERNAL" {
		t.Fatalf("events %+v", events)
	}
	for _, ev := range sseEvents(t, readBody(t, postTo(t, srv.URL, geminiStreamPath, `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`))) {
		if gjson.Get(ev.Data, "candidates.0.finishReason").Exists() {
			t.Fatalf("no_done still sent the last chunk: %s", ev.Data)
		}
	}
}
