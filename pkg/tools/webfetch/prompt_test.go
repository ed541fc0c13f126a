package webfetch

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/fetch"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/codecs"
	"github.com/tavo-cli/tavo/pkg/providers/fake"
	"github.com/tavo-cli/tavo/pkg/resources"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// extractor is an Extractor over the strict fake provider speaking the
// OpenAI protocol; usage collects what it reports.
func extractor(t *testing.T, window int) (*Extractor, *fake.Server, *providers.Usage) {
	srv := fake.NewServer(t)
	p, err := codecs.New(providers.ProtocolOpenAI, providers.Config{APIKey: "k", BaseURL: srv.URL + "/v1", Retry: providers.RetryPolicy{MaxRetries: -1}})
	if err != nil {
		t.Fatal(err)
	}
	var total providers.Usage
	return &Extractor{Provider: p, Model: "reader-mini", ContextWindow: window,
		OnUsage: func(u providers.Usage) { total = total.Add(u) }}, srv, &total
}

// chatRequest is the part of a chat-completions request the tests check.
type chatRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
	MaxTokens           int `json:"max_tokens"`
	MaxCompletionTokens int `json:"max_completion_tokens"`
}

func decodeChat(t *testing.T, body []byte) chatRequest {
	t.Helper()
	var r chatRequest
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatalf("request body: %v: %s", err, body)
	}
	return r
}

func runAny(t *testing.T, tool tools.Tool, args string) (any, error) {
	t.Helper()
	return tool.Run(context.Background(), &tools.Call{ID: "c1", Args: json.RawMessage(args), Env: &tools.Env{}})
}

func TestPromptOverALongPageAsksTheFetchModel(t *testing.T) {
	page := longText() // about 160 KB
	s := newServer(t, text(page))
	x, srv, usage := extractor(t, 200_000)
	srv.Enqueue(fake.Reply{Text: "Line 7 says ünïcödé [part 1].", Usage: &fake.Usage{InputTokens: 900, OutputTokens: 12}})
	tool := NewWith(&fetch.Engine{}, nil, Options{Extractor: x})
	v, err := runAny(t, tool, `{"url":"`+s.URL+`/doc.txt","prompt":"What does line 7 say?"}`)
	if err != nil {
		t.Fatal(err)
	}
	a, ok := v.(*Answer)
	if !ok || a.Answer != "Line 7 says ünïcödé [part 1]." || a.Model != "reader-mini" || a.SourceBytes != len(page) || a.URL != s.URL+"/doc.txt" {
		t.Fatalf("answer %#v", v)
	}
	if *usage != (providers.Usage{InputTokens: 900, OutputTokens: 12}) {
		t.Fatalf("usage %+v", *usage)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	r := decodeChat(t, reqs[0].Body)
	if r.Model != "reader-mini" || len(r.Messages) != 2 || r.Messages[0].Role != "system" || !strings.Contains(r.Messages[0].Content, "Cite the parts you used as [part N]") {
		t.Fatalf("request %+v", r)
	}
	user := r.Messages[1].Content
	if !strings.Contains(user, "<part n=\"1\" of=\"1\">\nline 0: ") || !strings.Contains(user, "line 3999: ") || !strings.HasSuffix(user, "Question: What does line 7 say?") {
		t.Fatalf("user message %.300q … %q", user, user[len(user)-100:])
	}
}

func TestPromptOverAPageBeyondTheWindowGoesPartByPart(t *testing.T) {
	var b strings.Builder
	for i := range 500 {
		b.WriteString("filler line number " + strings.Repeat("x", i%7) + "\n")
	}
	page := b.String() + "The answer is 42.\n" + b.String() // ~22 KB: six parts of 4 KiB
	s := newServer(t, text(page))
	x, srv, usage := extractor(t, 3_000)
	parts := len(fetch.Paginate(page, x.partBytes()))
	if parts < 3 {
		t.Fatalf("only %d parts", parts)
	}
	for i := range parts {
		reply := fake.Reply{Text: "NONE", Usage: &fake.Usage{InputTokens: 100, OutputTokens: 1}}
		if strings.Contains(fetch.Paginate(page, x.partBytes())[i], "42") {
			reply.Text = "The answer is 42 [part " + string(rune('1'+i)) + "]."
		}
		srv.Enqueue(reply)
	}
	srv.Enqueue(fake.Reply{Text: "42 [part 3].", Usage: &fake.Usage{InputTokens: 50, OutputTokens: 5}})
	tool := NewWith(&fetch.Engine{}, nil, Options{Extractor: x, Threshold: 1000})
	v, err := runAny(t, tool, `{"url":"`+s.URL+`/p","prompt":"What is the answer?"}`)
	if err != nil {
		t.Fatal(err)
	}
	if a := v.(*Answer); a.Answer != "42 [part 3]." {
		t.Fatalf("answer %+v", a)
	}
	reqs := srv.Requests()
	if len(reqs) != parts+1 || usage.InputTokens != parts*100+50 || usage.OutputTokens != parts+5 {
		t.Fatalf("%d requests for %d parts, usage %+v", len(reqs), parts, *usage)
	}
	second := decodeChat(t, reqs[1].Body).Messages[1].Content
	if !strings.Contains(second, `<part n="2" of="`) || !strings.HasSuffix(second, "Question: What is the answer?") {
		t.Fatalf("part request %.200q", second)
	}
	last := decodeChat(t, reqs[parts].Body)
	if !strings.Contains(last.Messages[0].Content, "keep their [part N] citations") || strings.Contains(last.Messages[1].Content, "NONE") ||
		strings.Count(last.Messages[1].Content, "Notes on part ") != 1 || !strings.Contains(last.Messages[1].Content, "The answer is 42") {
		t.Fatalf("combining request %+v", last)
	}
}

func TestPromptOverAShortPageReturnsThePage(t *testing.T) {
	s := newServer(t, text("short page\n"))
	x, srv, _ := extractor(t, 0)
	tool := NewWith(&fetch.Engine{}, nil, Options{Extractor: x})
	v, err := runAny(t, tool, `{"url":"`+s.URL+`/s","prompt":"anything?"}`)
	if r, ok := v.(*fetch.Result); err != nil || !ok || r.Markdown != "short page\n" || len(srv.Requests()) != 0 {
		t.Fatalf("%#v %v", v, err)
	}
	// A long page without a fetch model: the page, with a warning.
	l := newServer(t, text(longText()))
	v, err = runAny(t, New(&fetch.Engine{}, nil), `{"url":"`+l.URL+`/l","prompt":"anything?"}`)
	r, ok := v.(*fetch.Result)
	if err != nil || !ok || len(r.Warnings) != 1 || r.Warnings[0].Code != WarnFetchModelMissing || r.NextCursor == "" {
		t.Fatalf("%#v %v", v, err)
	}
}

func TestURLLengthAndPromptArguments(t *testing.T) {
	s := newServer(t, text("x"))
	tool := New(&fetch.Engine{}, nil)
	long := s.URL + "/?q=" + strings.Repeat("a", fetch.MaxURLLength)
	_, te := run(t, tool, `{"url":"`+long+`"}`)
	if te == nil || te.Code != tools.CodeInvalidArguments || te.Details["path"] != "url" || s.hits.Load() != 0 {
		t.Fatalf("long URL: %+v", te)
	}
	_, te = run(t, tool, `{"cursor":"abc","prompt":"q?"}`)
	if te == nil || te.Code != tools.CodeInvalidArguments || te.Details["path"] != "prompt" {
		t.Fatalf("prompt with cursor: %+v", te)
	}
}

// In a run, the answer's usage goes to the run's total and the page is kept
// whole as an artifact of the run that tavo_read reads.
func TestPromptAnswerCountsUsageAndKeepsThePage(t *testing.T) {
	page := longText()
	s := newServer(t, text(page))
	x, srv, own := extractor(t, 200_000)
	srv.Enqueue(fake.Reply{Text: "It says so [part 1].", Usage: &fake.Usage{InputTokens: 700, OutputTokens: 9}})
	tool := NewWith(&fetch.Engine{}, nil, Options{Extractor: x})
	cat, err := tools.NewCatalog(tool)
	if err != nil {
		t.Fatal(err)
	}
	centre := resources.New(nil)
	cat.SetResources(centre)
	var run providers.Usage
	env := &tools.Env{RunID: "run_1", SessionID: "ses_1", Catalog: cat, OnUsage: func(u providers.Usage) { run = run.Add(u) }}
	v, err := tool.Run(context.Background(), &tools.Call{ID: "c1", Args: json.RawMessage(`{"url":"` + s.URL + `/doc.txt","prompt":"What?"}`), Env: env})
	if err != nil {
		t.Fatal(err)
	}
	a := v.(*Answer)
	want := providers.Usage{InputTokens: 700, OutputTokens: 9}
	if run != want || *own != want {
		t.Fatalf("run usage %+v, extractor's own %+v", run, *own)
	}
	if !strings.HasPrefix(a.Artifact, "artifact://") {
		t.Fatalf("artifact %q", a.Artifact)
	}
	r, err := centre.Read(context.Background(), resources.Request{URL: a.Artifact, Scope: resources.Scope{SessionID: "ses_1", RunID: "run_1"}})
	if err != nil {
		t.Fatal(err)
	}
	if txt, ok := r.(*resources.Text); !ok || !strings.HasPrefix(txt.Text, page[:200]) {
		t.Fatalf("artifact reads %#v", r)
	}
}
