package websearch_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/tavo-cli/tavo/pkg/search"
	"github.com/tavo-cli/tavo/pkg/search/fake"
	"github.com/tavo-cli/tavo/pkg/tools"
	"github.com/tavo-cli/tavo/pkg/tools/websearch"
)

const key = "tvly-dev-SECRETsecret0123456789abcdef"

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(websearch.Schema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("tavo_web_search.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("tavo_web_search.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func TestSchemaIsStrict(t *testing.T) {
	sch := compileSchema(t)
	many := func(n int) string {
		ds := make([]string, n)
		for i := range ds {
			ds[i] = `"d` + strings.Repeat("x", i%5) + `.com"`
		}
		return "[" + strings.Join(ds, ",") + "]"
	}
	tests := []struct {
		args string
		ok   bool
	}{
		{`{"query":"dart 3.10 release notes"}`, true},
		{`{"query":"go","max_results":1,"topic":"news","time_range":"week","include_domains":["go.dev"],"exclude_domains":["spam.com"]}`, true},
		{`{"query":"go","max_results":20,"topic":"finance","time_range":"year"}`, true},
		{`{"query":"` + strings.Repeat("é", 400) + `"}`, true},
		{`{"query":"go","include_domains":` + many(300) + `}`, true},
		{`{}`, false},
		{`{"query":""}`, false},
		{`{"query":"   "}`, false},
		{`{"query":"` + strings.Repeat("é", 401) + `"}`, false},
		{`{"query":"go","depth":"advanced"}`, false},
		{`{"query":"go","chunks_per_source":2}`, false},
		{`{"query":"go","max_results":0}`, false},
		{`{"query":"go","max_results":31}`, false},
		{`{"query":"go","max_results":2.5}`, false},
		{`{"query":"go","max_results":"5"}`, false},
		{`{"query":"go","topic":"sports"}`, false},
		{`{"query":"go","time_range":"d"}`, false},
		{`{"query":"go","include_domains":"go.dev"}`, false},
		{`{"query":"go","include_domains":[""]}`, false},
		{`{"query":"go","include_domains":[1]}`, false},
		{`{"query":"go","include_domains":` + many(301) + `}`, false},
		{`{"query":"go","exclude_domains":` + many(151) + `}`, false},
		{`{"query":7}`, false},
		{`["go"]`, false},
	}
	for _, tt := range tests {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(tt.args))
		if err != nil {
			t.Fatal(err)
		}
		err = sch.Validate(inst)
		if (err == nil) != tt.ok {
			t.Errorf("%.80s: valid=%v, want %v (%v)", tt.args, err == nil, tt.ok, err)
		}
	}
}

func TestSpec(t *testing.T) {
	s := websearch.New(nil).Spec()
	if s.Name != "tavo_web_search" || s.ID != s.Name || !s.Resident || s.NeedsConfirm || s.Source != tools.SourceBuiltin {
		t.Fatalf("spec %+v", s)
	}
	if !strings.Contains(s.Description, "tavo_web_fetch") || !json.Valid(s.Parameters) {
		t.Fatal("description must point to tavo_web_fetch and parameters must be JSON")
	}
}

func call(t *testing.T, tool tools.Tool, args string) (any, error) {
	t.Helper()
	return tool.Run(context.Background(), &tools.Call{ID: "c1", Args: json.RawMessage(args), Env: &tools.Env{}})
}

func TestRunMapsArgumentsAndShapesResult(t *testing.T) {
	f := fake.NewTavily(key)
	defer f.Close()
	r := &search.Runner{Default: search.API{Name: "tavily", Engine: "tavily", BaseURL: f.URL(), APIKey: key,
		Defaults: search.Query{MaxResults: 6, Depth: "advanced", ChunksPerSource: 2}}}
	out, err := call(t, websearch.New(r), `{"query":"dart release notes","max_results":3,"topic":"news","time_range":"month","include_domains":["dart.dev"],"exclude_domains":[]}`)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := f.Last()
	var body map[string]any
	if err := json.Unmarshal(req.Body, &body); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"query": "dart release notes", "max_results": 3.0, "topic": "news", "time_range": "month",
		"search_depth": "advanced", "chunks_per_source": 2.0, "include_domains": []any{"dart.dev"}}
	if !reflect.DeepEqual(body, want) {
		t.Fatalf("request body %v\nwant %v", body, want)
	}
	b, _ := json.Marshal(out)
	var shape map[string]json.RawMessage
	if err := json.Unmarshal(b, &shape); err != nil {
		t.Fatal(err)
	}
	if len(shape) != 2 || string(shape["warnings"]) != "[]" || shape["results"] == nil {
		t.Fatalf("result %s", b)
	}
	if strings.Contains(string(b), fake.TavilyRequestID) || strings.Contains(string(b), key) {
		t.Fatalf("result leaks: %s", b)
	}
}

func TestRunEmptyResults(t *testing.T) {
	f := fake.NewTavily(key)
	defer f.Close()
	f.SetHits(nil)
	r := &search.Runner{Default: search.API{Name: "t", Engine: "tavily", BaseURL: f.URL(), APIKey: key}}
	out, err := call(t, websearch.New(r), `{"query":"zzqx"}`)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(out); string(b) != `{"results":[],"warnings":[]}` {
		t.Fatalf("result %s", b)
	}
}

func TestRunErrors(t *testing.T) {
	tests := []struct {
		name        string
		engine      string
		reply       *fake.Reply
		args        string
		wantCode    string
		wantDetails map[string]any
	}{
		{"tavily rate limit", "tavily", ptr(fake.TavilyRateLimited()), `{"query":"go"}`, tools.CodeUpstreamError,
			map[string]any{"reason": "rate_limited", "engine": "tavily", "status": 429.0}},
		{"brave rate limit has retry", "brave", ptr(fake.BraveRateLimited()), `{"query":"go"}`, tools.CodeUpstreamError,
			map[string]any{"reason": "rate_limited", "engine": "brave", "status": 429.0, "retryAfterSeconds": 1.0}},
		{"tavily bad key", "tavily", ptr(fake.TavilyError(401, "Unauthorized: missing or invalid API key "+key)), `{"query":"go"}`, tools.CodeUpstreamError,
			map[string]any{"reason": "auth_failed", "engine": "tavily", "status": 401.0}},
		{"server error", "tavily", ptr(fake.TavilyServerError()), `{"query":"go"}`, tools.CodeUpstreamError,
			map[string]any{"reason": "upstream_error", "engine": "tavily", "status": 500.0}},
		{"bad domain", "tavily", nil, `{"query":"go","include_domains":["not a domain"]}`, tools.CodeInvalidArguments,
			map[string]any{"path": "include_domains[0]", "expected": `a domain name such as "example.com"`, "actualType": "string"}},
		{"max_results 0", "tavily", nil, `{"query":"go","max_results":0}`, tools.CodeInvalidArguments,
			map[string]any{"path": "max_results", "expected": "an integer from 1 to 30", "actualType": "integer"}},
		{"unknown field", "tavily", nil, `{"query":"go","depth":"advanced"}`, tools.CodeInvalidArguments, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var api search.API
			switch tt.engine {
			case "tavily":
				f := fake.NewTavily(key)
				defer f.Close()
				if tt.reply != nil {
					f.Enqueue(*tt.reply)
				}
				api = search.API{Name: "tavily", Engine: "tavily", BaseURL: f.URL(), APIKey: key}
			case "brave":
				f := fake.NewBrave(key)
				defer f.Close()
				f.Enqueue(*tt.reply)
				api = search.API{Name: "brave", Engine: "brave", BaseURL: f.URL(), APIKey: key}
			}
			_, err := call(t, websearch.New(&search.Runner{Default: api}), tt.args)
			var te *tools.Error
			if !errors.As(err, &te) || te.Code != tt.wantCode || te.Message == "" {
				t.Fatalf("err = %v", err)
			}
			b, _ := json.Marshal(te)
			if strings.Contains(string(b), key) || strings.Contains(string(b), "127.0.0.1") || strings.Contains(string(b), fake.BraveErrorID) {
				t.Fatalf("error leaks: %s", b)
			}
			if tt.wantDetails == nil {
				return
			}
			var got struct {
				Details map[string]any `json:"details"`
			}
			_ = json.Unmarshal(b, &got)
			if !reflect.DeepEqual(got.Details, tt.wantDetails) {
				t.Fatalf("details %v, want %v", got.Details, tt.wantDetails)
			}
		})
	}
}

func TestRunNotConfigured(t *testing.T) {
	_, err := call(t, websearch.New(&search.Runner{Default: search.API{Name: "tavily", Engine: "tavily"}}), `{"query":"go"}`)
	var te *tools.Error
	if !errors.As(err, &te) || te.Code != tools.CodeUpstreamError || te.Details["reason"] != "not_configured" ||
		!strings.Contains(te.Message, "not configured") || !strings.Contains(te.Message, "api_key") {
		t.Fatalf("err = %v", err)
	}
}

func TestRunCancelled(t *testing.T) {
	f := fake.NewTavily(key)
	defer f.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tool := websearch.New(&search.Runner{Default: search.API{Name: "t", Engine: "tavily", BaseURL: f.URL(), APIKey: key}})
	_, err := tool.Run(ctx, &tools.Call{Args: json.RawMessage(`{"query":"go"}`), Env: &tools.Env{}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled for the executor to report", err)
	}
}

func ptr[T any](v T) *T { return &v }
