package codecs

import (
	"context"
	"maps"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/fake"
	"github.com/tavo-cli/tavo/pkg/providers/providertest"
)

func TestNewCoversTheTable(t *testing.T) {
	for _, p := range providers.AllProtocols() {
		c, err := New(p, providers.Config{})
		if err != nil || c.Protocol() != p {
			t.Errorf("New(%s) = %v, %v", p, c, err)
		}
	}
	if _, err := New("cohere", providers.Config{}); err == nil || !strings.Contains(err.Error(), `protocol "cohere" is not supported (use openai, openai-responses, anthropic or gemini)`) {
		t.Fatalf("unknown protocol: %v", err)
	}
}

// runPath is the path a run's request adds to the API root.
var runPath = map[providers.Protocol]string{
	providers.ProtocolOpenAI:          "/chat/completions",
	providers.ProtocolOpenAIResponses: "/responses",
	providers.ProtocolAnthropic:       "/messages",
	providers.ProtocolGemini:          "/models/m:generateContent",
}

// transportHeaders are set by net/http itself, not by tavo, and differ
// between a POST with a body and a GET.
var transportHeaders = []string{"Content-Length", "Accept-Encoding"}

// TestModelsRequestGoesWhereARunGoes sends, for every protocol and profile
// shape, one real run request through the codec and the model-list probe
// that `tavo profile diagnose` sends, both to the fake server, and checks
// that they reach the same API root with the same query and headers.
func TestModelsRequestGoesWhereARunGoes(t *testing.T) {
	cases := []struct {
		name      string
		base      string // appended to the fake's URL
		cfg       providers.Config
		modelPath map[providers.Protocol]string // the probe's path, where it is worth pinning
	}{
		{name: "plain", cfg: providers.Config{APIKey: "k"}, modelPath: map[providers.Protocol]string{
			providers.ProtocolOpenAI: "/models", providers.ProtocolAnthropic: "/v1/models", providers.ProtocolGemini: "/v1beta/models",
		}},
		{name: "trailing slash", base: "/", cfg: providers.Config{APIKey: "k"}},
		{name: "base ends in /v1", base: "/v1", cfg: providers.Config{APIKey: "k"}, modelPath: map[providers.Protocol]string{
			providers.ProtocolOpenAI: "/v1/models", providers.ProtocolOpenAIResponses: "/v1/models", providers.ProtocolAnthropic: "/v1/models", providers.ProtocolGemini: "/v1/models",
		}},
		{name: "proxy path with /v1/", base: "/proxy/v1/", cfg: providers.Config{APIKey: "k"}, modelPath: map[providers.Protocol]string{
			providers.ProtocolAnthropic: "/proxy/v1/models",
		}},
		{name: "gemini version in base", base: "/v1beta", cfg: providers.Config{APIKey: "k"}, modelPath: map[providers.Protocol]string{
			providers.ProtocolGemini: "/v1beta/models",
		}},
		{name: "header overrides", cfg: providers.Config{APIKey: "k", Headers: map[string]string{
			"anthropic-version": "2024-10-22", "anthropic-beta": "x", "X-Team": "core", "User-Agent": "mine",
		}}},
		{name: "auth header", cfg: providers.Config{APIKey: "k", AuthHeader: "api-key"}},
		{name: "query", base: "/openai?tenant=a", cfg: providers.Config{APIKey: "k", Query: map[string]string{"api-version": "2024-10-21"}}},
		{name: "no key", cfg: providers.Config{}},
	}
	for _, p := range providers.AllProtocols() {
		for _, tc := range cases {
			t.Run(string(p)+"/"+tc.name, func(t *testing.T) {
				srv := fake.NewServer(t)
				srv.Enqueue(fake.Reply{Text: "hi"})
				if tc.cfg.APIKey == "" || tc.cfg.AuthHeader != "" {
					// A compatible server with its own key rules.
					srv.CheckRoutes(false)
				}
				cfg := tc.cfg
				cfg.BaseURL = srv.URL + tc.base
				cfg.Retry = providers.RetryPolicy{MaxRetries: -1}

				c, err := New(p, cfg)
				if err != nil {
					t.Fatal(err)
				}
				req := &providers.Request{Model: "m", Messages: []providers.Message{{Role: providers.RoleUser, Parts: []providers.Part{{Type: providers.PartText, Text: "hi"}}}}}
				if _, err := c.Complete(context.Background(), req, &providertest.Sink{}); err != nil {
					t.Fatalf("run: %v", err)
				}

				target, header, err := providers.ModelsRequest(p, cfg)
				if err != nil {
					t.Fatal(err)
				}
				probe, _ := http.NewRequest(http.MethodGet, target, nil)
				probe.Header = header
				resp, err := http.DefaultClient.Do(probe)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("probe: HTTP %d", resp.StatusCode)
				}

				got := srv.Requests()
				if len(got) != 2 {
					t.Fatalf("%d requests", len(got))
				}
				run, models := got[0], got[1]
				root, ok := strings.CutSuffix(run.Path, runPath[p])
				if !ok {
					t.Fatalf("run path %q lacks %q", run.Path, runPath[p])
				}
				if models.Method != http.MethodGet || models.Path != root+providers.ModelsPath {
					t.Errorf("probe path %q, run path %q", models.Path, run.Path)
				}
				if want := tc.modelPath[p]; want != "" && models.Path != want {
					t.Errorf("probe path %q, want %q", models.Path, want)
				}
				if rq, mq := mustQuery(t, run.Query), mustQuery(t, models.Query); !equalValues(rq, mq) {
					t.Errorf("query: run %q, probe %q", run.Query, models.Query)
				}
				rh, mh := run.Header.Clone(), models.Header.Clone()
				for _, k := range transportHeaders {
					rh.Del(k)
					mh.Del(k)
				}
				if !equalValues(url.Values(rh), url.Values(mh)) {
					t.Errorf("headers differ:\nrun   %v\nprobe %v", rh, mh)
				}
				checkOverrides(t, p, cfg, mh)
			})
		}
	}
}

// checkOverrides pins what the profile asked for, so that equal headers
// cannot both be wrong.
func checkOverrides(t *testing.T, p providers.Protocol, cfg providers.Config, h http.Header) {
	t.Helper()
	info, _ := providers.Lookup(p)
	for k, v := range cfg.Headers {
		if h.Get(k) != v {
			t.Errorf("%s: %q, want the profile's %q", k, h.Get(k), v)
		}
	}
	if v, ok := info.Header["Anthropic-Version"]; ok && cfg.Headers["anthropic-version"] == "" && h.Get("Anthropic-Version") != v {
		t.Errorf("anthropic-version %q", h.Get("Anthropic-Version"))
	}
	switch {
	case cfg.APIKey == "":
		if h.Get(info.Auth.Header) != "" {
			t.Errorf("a key was sent without one: %v", h)
		}
	case cfg.AuthHeader != "":
		if h.Get(cfg.AuthHeader) != cfg.APIKey || h.Get(info.Auth.Header) != "" {
			t.Errorf("auth_header: %v", h)
		}
	default:
		if h.Get(info.Auth.Header) != info.Auth.Prefix+cfg.APIKey {
			t.Errorf("auth: %v", h)
		}
	}
}

func mustQuery(t *testing.T, raw string) url.Values {
	t.Helper()
	q, err := url.ParseQuery(raw)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func equalValues(a, b url.Values) bool {
	return maps.EqualFunc(a, b, func(x, y []string) bool { return strings.Join(x, "\x00") == strings.Join(y, "\x00") })
}
