package search_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/search"
	"github.com/tavo-cli/tavo/pkg/search/fake"
)

// Keys shaped like the real ones, so a leak check also covers the
// key-shaped redaction.
const (
	tavilyKey = "tvly-dev-SECRETsecret0123456789abcdef"
	braveKey  = "BSAsecretSECRET0123456789abcdefXYZ"
)

func tavilyAPI(f *fake.Tavily) search.API {
	return search.API{Name: "tav", Engine: search.EngineTavily, BaseURL: f.URL(), APIKey: tavilyKey}
}

func braveAPI(f *fake.Brave) search.API {
	return search.API{Name: "brv", Engine: search.EngineBrave, BaseURL: f.URL(), APIKey: braveKey}
}

func searxAPI(f *fake.SearXNG) search.API {
	return search.API{Name: "sx", Engine: search.EngineSearXNG, BaseURL: f.URL()}
}

func engine(t *testing.T, api search.API) search.Engine {
	t.Helper()
	e, err := search.New(api, nil)
	if err != nil {
		t.Fatalf("New(%s): %v", api.Engine, err)
	}
	return e
}

func run(t *testing.T, api search.API, q search.Query) *search.Response {
	t.Helper()
	resp, err := engine(t, api).Search(context.Background(), q)
	if err != nil {
		t.Fatalf("Search: %v", err)
	}
	return resp
}

func runErr(t *testing.T, api search.API, q search.Query) *search.Error {
	t.Helper()
	resp, err := engine(t, api).Search(context.Background(), q)
	if err == nil {
		t.Fatalf("Search succeeded with %d results, want an error", len(resp.Results))
	}
	var se *search.Error
	if !errors.As(err, &se) {
		t.Fatalf("Search error %T %v, want *search.Error", err, err)
	}
	return se
}

func lastRequest(t *testing.T, r interface{ Last() (fake.Request, bool) }) fake.Request {
	t.Helper()
	req, ok := r.Last()
	if !ok {
		t.Fatal("the fake received no request")
	}
	return req
}

func hasWarning(resp *search.Response, code string) bool {
	for _, w := range resp.Warnings {
		if w.Code == code {
			return true
		}
	}
	return false
}

func warningCodes(ws []search.Warning) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Code)
	}
	return out
}

// mustNotContain fails when any of the secrets appears in s.
func mustNotContain(t *testing.T, what, s string, secrets ...string) {
	t.Helper()
	for _, sec := range secrets {
		if sec != "" && strings.Contains(s, sec) {
			t.Errorf("%s contains %q: %s", what, sec, s)
		}
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
