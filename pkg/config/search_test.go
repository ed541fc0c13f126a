package config

import (
	"strings"
	"testing"
)

func searchEnv(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestResolveSearch(t *testing.T) {
	cases := []struct {
		name    string
		cfg     SearchConfig
		env     map[string]string
		only    string
		problem string // substring; "" means ready
		def     string
		key     string
		fb      int
	}{
		{name: "none configured", problem: "no search API is configured"},
		{name: "one API is the default even unnamed", cfg: SearchConfig{APIs: map[string]*SearchAPI{"s": {Engine: "searxng", BaseURL: "http://127.0.0.1:8888"}}}, def: "s"},
		{name: "several without a default", cfg: SearchConfig{APIs: map[string]*SearchAPI{"a": {Engine: "brave"}, "b": {Engine: "brave"}}}, problem: "search.default is not set"},
		{name: "key only in the usual env var", cfg: SearchConfig{Default: "t", APIs: map[string]*SearchAPI{"t": {Engine: "tavily"}}}, env: map[string]string{"TAVILY_API_KEY": "tvly-1"}, def: "t", key: "tvly-1"},
		{name: "usual env var missing", cfg: SearchConfig{Default: "t", APIs: map[string]*SearchAPI{"t": {Engine: "tavily"}}}, problem: "set TAVILY_API_KEY"},
		{name: "named env var wins", cfg: SearchConfig{Default: "b", APIs: map[string]*SearchAPI{"b": {Engine: "brave", APIKeyEnv: "MYB"}}}, env: map[string]string{"MYB": "k2", "BRAVE_API_KEY": "other"}, def: "b", key: "k2"},
		{name: "named env var empty", cfg: SearchConfig{Default: "b", APIs: map[string]*SearchAPI{"b": {Engine: "brave", APIKeyEnv: "MYB"}}}, env: map[string]string{"BRAVE_API_KEY": "other"}, problem: "set MYB"},
		{name: "searxng without url", cfg: SearchConfig{Default: "s", APIs: map[string]*SearchAPI{"s": {Engine: "searxng"}}}, problem: "--base-url"},
		{name: "fallbacks kept in order", cfg: SearchConfig{Default: "s", Fallback: []string{"b", "t"}, APIs: map[string]*SearchAPI{
			"s": {Engine: "searxng", BaseURL: "http://x"}, "b": {Engine: "brave", APIKey: "k"}, "t": {Engine: "tavily", APIKey: "k"}}}, def: "s", fb: 2},
		{name: "only drops fallbacks", only: "b", cfg: SearchConfig{Default: "s", Fallback: []string{"b"}, APIs: map[string]*SearchAPI{
			"s": {Engine: "searxng", BaseURL: "http://x"}, "b": {Engine: "brave", APIKey: "k"}}}, def: "b", key: "k"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := &Config{Search: c.cfg}
			s, err := cfg.ResolveSearch(c.only, searchEnv(c.env))
			if err != nil {
				t.Fatal(err)
			}
			if c.problem != "" {
				if !strings.Contains(s.Problem, c.problem) {
					t.Fatalf("problem %q, want %q", s.Problem, c.problem)
				}
				return
			}
			if s.Problem != "" || s.Default.Name != c.def || s.Default.APIKey != c.key || len(s.Fallback) != c.fb {
				t.Fatalf("got %+v problem %q", s.Default.Name, s.Problem)
			}
		})
	}
	if _, err := (&Config{}).ResolveSearch("nope", searchEnv(nil)); err == nil || !strings.Contains(err.Error(), `unknown search API "nope"`) {
		t.Fatalf("unknown --engine: %v", err)
	}
}

func TestSearchDefaultStaysUnique(t *testing.T) {
	c := &Config{}
	if !c.PutSearchAPI("b", &SearchAPI{Engine: "brave"}) {
		t.Fatal("the first API must become the default")
	}
	if c.PutSearchAPI("a", &SearchAPI{Engine: "tavily"}) {
		t.Fatal("a second API must not take the default")
	}
	c.Search.Fallback = []string{"a"}
	next, ok := c.RemoveSearchAPI("b")
	if !ok || next != "a" || c.Search.Default != "a" || len(c.Search.Fallback) != 0 {
		t.Fatalf("after removing the default: next %q default %q fallback %v", next, c.Search.Default, c.Search.Fallback)
	}
	if next, _ := c.RemoveSearchAPI("a"); next != "" || c.Search.Default != "" || c.Search.APIs != nil {
		t.Fatalf("after removing the last: %+v", c.Search)
	}
	if _, ok := c.RemoveSearchAPI("a"); ok {
		t.Fatal("removing a missing API must report it")
	}
}

func TestFailoverAuto(t *testing.T) {
	apis := map[string]*SearchAPI{
		"tav": {Engine: "tavily", APIKey: "k"}, "ddg": {Engine: "duckduckgo"}, "bng": {Engine: "bing"},
		"brv": {Engine: "brave", APIKey: "k"}, "sx": {Engine: "searxng"},
	}
	cfg := &Config{Search: SearchConfig{Default: "tav", Fallback: []string{"brv"}, Failover: FailoverAuto, APIs: apis}}
	if err := cfg.Search.validate(); err != nil {
		t.Fatal(err)
	}
	s, err := cfg.ResolveSearch("", searchEnv(nil))
	if err != nil || s.Problem != "" {
		t.Fatalf("%v %q", err, s.Problem)
	}
	// The explicit list first, then every other complete API by name: bing
	// lacks BING_API_KEY and searxng its base_url, so they are left out.
	var names []string
	for _, a := range s.Fallback {
		names = append(names, a.Name)
	}
	if strings.Join(names, ",") != "brv,ddg" {
		t.Fatalf("fallbacks %v", names)
	}
	s, _ = cfg.ResolveSearch("", searchEnv(map[string]string{"BING_API_KEY": "b1"}))
	if len(s.Fallback) != 3 || s.Fallback[1].Name != "bng" || s.Fallback[1].APIKey != "b1" {
		t.Fatalf("with BING_API_KEY: %+v", s.Fallback)
	}
	cfg.Search.Failover = ""
	if s, _ = cfg.ResolveSearch("", searchEnv(nil)); len(s.Fallback) != 1 {
		t.Fatalf("without failover: %+v", s.Fallback)
	}
	cfg.Search.Failover = "always"
	if err := cfg.Search.validate(); err == nil || !strings.Contains(err.Error(), `failover "always"`) {
		t.Fatalf("bad failover: %v", err)
	}
}
