package webfetch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tavo-cli/tavo/pkg/fetch"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// longText is a plain-text document of many pages.
func longText() string {
	var b strings.Builder
	for i := range 4000 {
		fmt.Fprintf(&b, "line %d: ünïcödé text to page through\n", i)
	}
	return b.String()
}

type server struct {
	*httptest.Server
	hits atomic.Int32
}

func newServer(t *testing.T, h http.HandlerFunc) *server {
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func text(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprint(w, body)
	}
}

func run(t *testing.T, tool tools.Tool, args string) (*fetch.Result, *tools.Error) {
	t.Helper()
	v, err := tool.Run(context.Background(), &tools.Call{ID: "c1", Args: json.RawMessage(args), Env: &tools.Env{}})
	if err != nil {
		var te *tools.Error
		if !errors.As(err, &te) {
			t.Fatalf("Run error %T %v is not *tools.Error", err, err)
		}
		return nil, te
	}
	r, ok := v.(*fetch.Result)
	if !ok {
		t.Fatalf("result %T", v)
	}
	return r, nil
}

func TestSpec(t *testing.T) {
	s := New(&fetch.Engine{}, nil).Spec()
	if s.Name != Name || s.ID != Name || !s.Resident || s.NeedsConfirm || s.Source != tools.SourceBuiltin {
		t.Fatalf("spec %+v", s)
	}
	var schema map[string]any
	if err := json.Unmarshal(s.Parameters, &schema); err != nil || schema["additionalProperties"] != false {
		t.Fatalf("schema %s: %v", s.Parameters, err)
	}
	if _, err := tools.NewCatalog(New(&fetch.Engine{}, nil)); err != nil {
		t.Fatalf("the catalog refuses the tool: %v", err)
	}
}

func TestPagesThroughWithoutRefetching(t *testing.T) {
	doc := longText()
	s := newServer(t, text(doc))
	tool := New(&fetch.Engine{}, fetch.NewMemoryStore(0))
	r, te := run(t, tool, `{"url":"`+s.URL+`/doc.txt"}`)
	if te != nil {
		t.Fatal(te)
	}
	var got strings.Builder
	got.WriteString(r.Markdown)
	pages := 1
	for r.NextCursor != "" {
		if len(r.Markdown) > fetch.PageSize || !r.Truncated {
			t.Fatalf("page %d: %d bytes, truncated %v", pages, len(r.Markdown), r.Truncated)
		}
		// The cursor wins over a URL given with it.
		r, te = run(t, tool, `{"cursor":"`+r.NextCursor+`","url":"http://127.0.0.1:1/never"}`)
		if te != nil {
			t.Fatal(te)
		}
		if r.URL != s.URL+"/doc.txt" || r.Status != 200 || r.MIME != "text/plain" {
			t.Fatalf("continuation metadata %+v", r)
		}
		got.WriteString(r.Markdown)
		pages++
	}
	if got.String() != doc || pages < 5 {
		t.Fatalf("%d pages do not rebuild the document", pages)
	}
	if n := s.hits.Load(); n != 1 {
		t.Fatalf("the server was hit %d times, want once", n)
	}
}

func TestShortDocumentHasNoCursor(t *testing.T) {
	s := newServer(t, text("short\n"))
	r, te := run(t, New(&fetch.Engine{}, nil), `{"url":"`+s.URL+`","headers":{"Authorization":"Bearer x"}}`)
	if te != nil || r.NextCursor != "" || r.Truncated || r.Markdown != "short\n" {
		t.Fatalf("result %+v %v", r, te)
	}
}

func TestHeadersAreSent(t *testing.T) {
	var auth string
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		auth = r.Header.Get("Authorization")
		fmt.Fprint(w, "ok")
	})
	if _, te := run(t, New(&fetch.Engine{}, nil), `{"url":"`+s.URL+`","headers":{"Authorization":"Bearer tok"}}`); te != nil {
		t.Fatal(te)
	}
	if auth != "Bearer tok" {
		t.Fatalf("Authorization %q", auth)
	}
}

func TestBadCursors(t *testing.T) {
	s := newServer(t, text(longText()))
	store := fetch.NewMemoryStore(0)
	tool := New(&fetch.Engine{}, store)
	r, _ := run(t, tool, `{"url":"`+s.URL+`"}`)

	// Altered: one character changed.
	c := []byte(r.NextCursor)
	c[5] ^= 1
	if c[5] == '-' || c[5] == '_' {
		c[5] = 'A'
	}
	_, te := run(t, tool, `{"cursor":"`+string(c)+`","url":"`+s.URL+`"}`)
	if te == nil || te.Code != tools.CodeInvalidArguments {
		t.Fatalf("altered cursor: %v", te)
	}
	// Minted by another run's store.
	other := New(&fetch.Engine{}, fetch.NewMemoryStore(0))
	if _, te = run(t, other, `{"cursor":"`+r.NextCursor+`"}`); te == nil || te.Code != tools.CodeInvalidArguments {
		t.Fatalf("foreign cursor: %v", te)
	}
	// Evicted from a small store.
	small := New(&fetch.Engine{}, fetch.NewMemoryStore(200<<10))
	first, _ := run(t, small, `{"url":"`+s.URL+`"}`)
	run(t, small, `{"url":"`+s.URL+`"}`)
	if _, te = run(t, small, `{"cursor":"`+first.NextCursor+`"}`); te == nil || te.Code != tools.CodeResourceNotFound {
		t.Fatalf("evicted cursor: %v", te)
	}
	if hits := s.hits.Load(); hits != 3 {
		t.Fatalf("bad cursors fell back to the URL: %d hits", hits)
	}
}

func TestArgumentErrors(t *testing.T) {
	tool := New(&fetch.Engine{}, nil)
	for _, args := range []string{`{}`, `{"url":""}`, `{"url":"x","extra":1}`, `[1]`, `{"url":7}`, `{"url":"ftp://example.com/"}`, `{"url":"http://h/","headers":{"Bad Name":"v"}}`} {
		if _, te := run(t, tool, args); te == nil || te.Code != tools.CodeInvalidArguments {
			t.Errorf("%s: %v", args, te)
		}
	}
}

func TestFetchErrorsKeepTheirCodes(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/pdf":
			w.Header().Set("Content-Type", "application/pdf")
			fmt.Fprint(w, "%PDF-1.7")
		case "/big":
			fmt.Fprint(w, strings.Repeat("b", 5000))
		default:
			http.NotFound(w, r)
		}
	})
	tool := New(&fetch.Engine{Limits: fetch.Limits{WireBytes: 1000}}, nil)
	cases := map[string]string{"/pdf": tools.CodeUnsupportedMediaType, "/big": tools.CodeLimitExceeded, "/gone": tools.CodeUpstreamError}
	for path, code := range cases {
		_, te := run(t, tool, `{"url":"`+s.URL+path+`"}`)
		if te == nil || te.Code != code {
			t.Fatalf("%s: %v, want %s", path, te, code)
		}
		if code == tools.CodeLimitExceeded && (te.Details["limit"] != fetch.LimitWire || te.Details["max"] != int64(1000)) {
			t.Fatalf("limit details %v", te.Details)
		}
	}
}

func TestCancelledContextGoesBackUnchanged(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := New(&fetch.Engine{}, nil).Run(ctx, &tools.Call{Args: json.RawMessage(`{"url":"` + s.URL + `"}`), Env: &tools.Env{}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
}

// TestResultsFitTheBudget drives the tool through the executor with
// documents that escape badly in JSON: every result must fit in 64 KiB.
func TestResultsFitTheBudget(t *testing.T) {
	bodies := map[string]string{
		"quotes":   strings.Repeat(`"\"`+"\n", 30000),
		"controls": strings.Repeat("\x01\x02\x03\x1f\n", 30000),
		"xml":      `<?xml version="1.0"?><r>` + strings.Repeat("<a b=\"c\">&amp;</a>\n", 8000) + `</r>`,
	}
	for name, body := range bodies {
		t.Run(name, func(t *testing.T) {
			ct := "text/plain"
			if name == "xml" {
				ct = "application/xml"
			}
			s := newServer(t, func(w http.ResponseWriter, r *http.Request) { w.Header().Set("Content-Type", ct); fmt.Fprint(w, body) })
			cat, err := tools.NewCatalog(New(&fetch.Engine{}, nil))
			if err != nil {
				t.Fatal(err)
			}
			x := &tools.Executor{Catalog: cat}
			args := `{"url":"` + s.URL + `"}`
			for i := 0; ; i++ {
				out := x.Execute(context.Background(), &tools.Env{}, providers.ToolCall{ID: "c", Name: Name, Arguments: args})
				if !out.OK || out.Truncated {
					t.Fatalf("call %d: ok %v truncated %v %s", i, out.OK, out.Truncated, truncate(out.Envelope, 300))
				}
				if len(out.Envelope) > tools.MaxResultBytes+100 {
					t.Fatalf("call %d: envelope of %d bytes", i, len(out.Envelope))
				}
				var env struct {
					Result fetch.Result `json:"result"`
				}
				if err := json.Unmarshal([]byte(out.Envelope), &env); err != nil {
					t.Fatal(err)
				}
				if env.Result.NextCursor == "" {
					break
				}
				args = `{"cursor":"` + env.Result.NextCursor + `"}`
			}
		})
	}
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
