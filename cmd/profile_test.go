package cmd

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/codecs"
	"github.com/tavo-cli/tavo/pkg/providers/fake"
	"github.com/tavo-cli/tavo/pkg/providers/providertest"
)

// profileEnv is a test environment: a temp config path and variables.
type profileEnv struct {
	t    *testing.T
	path string
	vars map[string]string
	tty  bool
}

func newProfileEnv(t *testing.T) *profileEnv {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cfg", "config.toml")
	return &profileEnv{t: t, path: path, vars: map[string]string{"TAVO_CONFIG": path, "HOME": t.TempDir()}}
}

// run executes tavo with args and returns stdout, stderr and the exit code.
func (e *profileEnv) run(args ...string) (string, string, int) {
	e.t.Helper()
	ios, _, out, errOut := cli.Test()
	ios.SetStdoutTTY(e.tty)
	f := &Factory{IO: ios, Getenv: func(k string) string { return e.vars[k] }}
	code := ExecuteWith(context.Background(), f, args)
	return out.String(), errOut.String(), code
}

// must runs args and fails the test unless tavo exits 0.
func (e *profileEnv) must(args ...string) (string, string) {
	e.t.Helper()
	out, errOut, code := e.run(args...)
	if code != 0 {
		e.t.Fatalf("tavo %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, out, errOut)
	}
	return out, errOut
}

func (e *profileEnv) load() *config.Config {
	e.t.Helper()
	c, err := config.Load(e.path)
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

func TestProfileSetCreatesAndUpdates(t *testing.T) {
	e := newProfileEnv(t)
	_, errOut := e.must("profile", "set", "work", "--protocol", "anthropic", "--model", "claude-sonnet-4-5",
		"--key-env", "WORK_KEY", "--tools", "--max-rounds", "8", "--tool-timeout", "30s",
		"--header", "X-Team=core", "--query", "v=1", "--param", "temperature=0.2", "--param", "top_k=3", "--param", "stop=[\"x\"]", "--param", "user=bob")
	if !strings.Contains(errOut, `created profile "work"`) || !strings.Contains(errOut, "now the default") {
		t.Fatalf("stderr: %q", errOut)
	}
	c := e.load()
	p := c.Profiles["work"]
	if c.DefaultProfile != "work" || p.Protocol != "anthropic" || p.Model != "claude-sonnet-4-5" || p.APIKeyEnv != "WORK_KEY" ||
		!*p.Tools || p.MaxRounds != 8 || p.ToolTimeout != "30s" || p.Headers["X-Team"] != "core" || p.Query["v"] != "1" {
		t.Fatalf("profile: %+v", *p)
	}
	if p.Params["temperature"] != 0.2 || p.Params["top_k"] != int64(3) || p.Params["user"] != "bob" {
		t.Fatalf("params: %#v", p.Params)
	}
	if p.DynamicTools != nil || p.Stream != nil {
		t.Fatal("flags not given were written")
	}

	// Only given flags change; empty values and K= remove.
	_, errOut = e.must("profile", "set", "work", "--model", "claude-opus-4-1", "--tools=false", "--header", "X-Team=", "--tool-timeout", "")
	if !strings.Contains(errOut, `updated profile "work"`) {
		t.Fatalf("stderr: %q", errOut)
	}
	p = e.load().Profiles["work"]
	if p.Model != "claude-opus-4-1" || *p.Tools || p.Headers != nil || p.ToolTimeout != "" || p.MaxRounds != 8 || p.APIKeyEnv != "WORK_KEY" {
		t.Fatalf("after update: %+v", *p)
	}

	// A second profile does not take the default unless asked.
	e.must("profile", "set", "other", "--model", "m")
	c = e.load()
	if c.DefaultProfile != "work" || c.Profiles["other"].Protocol != "openai" {
		t.Fatalf("default %q, other %+v", c.DefaultProfile, *c.Profiles["other"])
	}
	e.must("profile", "set", "other", "--default")
	if e.load().DefaultProfile != "other" {
		t.Fatal("--default ignored")
	}

	if runtime.GOOS != "windows" {
		if fi, err := os.Stat(e.path); err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("config mode: %v %v", fi, err)
		}
	}
}

func TestProfileSetRefusals(t *testing.T) {
	e := newProfileEnv(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"profile", "set", "w", "--api-key", "sk-SECRET"}, "--key-env"},
		{[]string{"profile", "set", "w", "--protocol", "mistral"}, `protocol "mistral"`},
		{[]string{"profile", "set", "w", "--key-env", "sk-SECRET-value"}, "api_key_env must name an environment variable"},
		{[]string{"profile", "set", "w", "--max-rounds", "-2"}, "max_rounds"},
		{[]string{"profile", "set", "w", "--tool-timeout", "soon"}, "tool_timeout"},
		{[]string{"profile", "set", "w", "--base-url", "localhost:1"}, "base_url"},
		{[]string{"profile", "set", "w", "--header", "novalue"}, "--header wants KEY=VALUE"},
		{[]string{"profile", "set", "w", "--reasoning-context", "always"}, "reasoning_context"},
		{[]string{"profile", "set", "bad name"}, "invalid profile name"},
		{[]string{"profile", "set"}, "accepts 1 arg"},
	} {
		out, errOut, code := e.run(tc.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.want) || strings.Contains(errOut, "SECRET") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, errOut)
		}
	}
	if _, err := os.Stat(e.path); !os.IsNotExist(err) {
		t.Fatal("a refused set wrote the config file")
	}
}

func TestProfileListModes(t *testing.T) {
	e := newProfileEnv(t)
	out, errOut := e.must("profile", "list")
	if out != "" || errOut != "" {
		t.Fatalf("empty list in a pipe: %q %q", out, errOut)
	}
	if out, _ := e.must("profile", "list", "-o", "json"); out != "[]\n" {
		t.Fatalf("empty json list: %q", out)
	}
	e.must("profile", "set", "work", "--model", "gpt-4o", "--key-env", "K")
	e.must("profile", "set", "local", "--base-url", "http://localhost:11434/v1", "--model", "llama3.2")
	e.vars["OPENAI_BASE_URL"] = "https://proxy.test/v1"

	out, _ = e.must("profile", "list")
	want := "local\topenai\tllama3.2\thttp://localhost:11434/v1\t\n" +
		"work\topenai\tgpt-4o\thttps://proxy.test/v1\t*\n"
	if out != want {
		t.Fatalf("pipe list:\n%q\nwant\n%q", out, want)
	}

	e.tty = true
	out, _ = e.must("profile", "list")
	if !strings.HasPrefix(out, "NAME ") || !strings.Contains(out, "BASE URL") || strings.Contains(out, "\t") {
		t.Fatalf("terminal list:\n%s", out)
	}

	out, _ = e.must("profile", "list", "-o", "json")
	var rows []profileRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 2 || !rows[1].Default || rows[1].Name != "work" {
		t.Fatalf("json list: %s (%v)", out, err)
	}
	out, _ = e.must("profile", "list", "--jq", `.[] | select(.default) | .name`)
	if out != "work\n" {
		t.Fatalf("--jq: %q", out)
	}
	if _, errOut, code := e.run("profile", "list", "--jq", ".["); code != 2 || !strings.Contains(errOut, "invalid jq expression") {
		t.Fatalf("bad --jq: %d %q", code, errOut)
	}
	if _, _, code := e.run("profile", "list", "-o", "yaml"); code != 2 {
		t.Fatalf("bad -o: exit %d", code)
	}
}

func TestProfileShowNeverShowsKey(t *testing.T) {
	e := newProfileEnv(t)
	e.must("profile", "set", "work", "--model", "gpt-4o", "--key-env", "WORK_KEY", "--header", "Authorization=Bearer SECRET-H", "--header", "X-Title=tavo")
	e.vars["WORK_KEY"] = "sk-SECRET-KEY"

	out, _ := e.must("profile", "show")
	for _, want := range []string{"name\twork (default)\n", "api_key\t(set, from env WORK_KEY)\n", "max_rounds\t5\n", "tool_timeout\t60s\n",
		"base_url\thttps://api.openai.com/v1 (default)\n", "Authorization=(hidden)", "X-Title=tavo"} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "SECRET") {
		t.Fatalf("show printed a secret:\n%s", out)
	}

	out, _ = e.must("profile", "show", "work", "-o", "json")
	var v profileView
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if !v.APIKey.Set || v.APIKey.Source != "env WORK_KEY" || v.MaxToolCalls != 32 || !v.DynamicTools || strings.Contains(out, "SECRET") {
		t.Fatalf("json show: %s", out)
	}

	delete(e.vars, "WORK_KEY")
	out, _ = e.must("profile", "show", "work")
	if !strings.Contains(out, "api_key\t(missing: set WORK_KEY)") {
		t.Fatalf("missing key:\n%s", out)
	}

	e.tty = true
	out, _ = e.must("profile", "show", "work")
	if !strings.Contains(out, "api_key:") || strings.Contains(out, "\t") {
		t.Fatalf("terminal show:\n%s", out)
	}

	if _, errOut, code := e.run("profile", "show", "nope"); code != 2 || !strings.Contains(errOut, `unknown profile "nope" (known: work)`) {
		t.Fatalf("unknown: %d %q", code, errOut)
	}
}

func TestProfileShowLocalAndFileKey(t *testing.T) {
	e := newProfileEnv(t)
	e.must("profile", "set", "local", "--base-url", "http://127.0.0.1:8080/v1", "--model", "m")
	out, _ := e.must("profile", "show", "local")
	if !strings.Contains(out, "api_key\t(none needed: local server)") {
		t.Fatalf("local:\n%s", out)
	}

	// A key written in the file by hand is used but never shown.
	os.WriteFile(e.path, []byte("[profiles.az]\nmodel = \"m\"\napi_key = \"sk-SECRET-FILE\"\n"), 0o600)
	out, _ = e.must("profile", "show", "az")
	if !strings.Contains(out, "api_key\t(set, in the config file)") || strings.Contains(out, "SECRET") {
		t.Fatalf("file key:\n%s", out)
	}
	out, _ = e.must("profile", "show", "az", "-o", "json")
	if strings.Contains(out, "SECRET") {
		t.Fatalf("json leaked the key: %s", out)
	}
}

func TestProfileRmAndUse(t *testing.T) {
	e := newProfileEnv(t)
	e.must("profile", "set", "a", "--model", "m")
	e.must("profile", "set", "b", "--model", "m")
	e.must("profile", "set", "c", "--model", "m")

	_, errOut := e.must("profile", "use", "b")
	if e.load().DefaultProfile != "b" || !strings.Contains(errOut, `default profile is now "b"`) {
		t.Fatalf("use: %q", errOut)
	}
	e.vars["TAVO_PROFILE"] = "c"
	_, errOut = e.must("profile", "use", "a")
	if !strings.Contains(errOut, "TAVO_PROFILE=c") {
		t.Fatalf("use with TAVO_PROFILE: %q", errOut)
	}
	delete(e.vars, "TAVO_PROFILE")

	_, errOut = e.must("profile", "rm", "a")
	if e.load().DefaultProfile != "" || !strings.Contains(errOut, "no default profile now") {
		t.Fatalf("rm default with two left: %q", errOut)
	}
	e.must("profile", "use", "b")
	_, errOut = e.must("profile", "rm", "b")
	if e.load().DefaultProfile != "c" || !strings.Contains(errOut, `"c" is now the default`) {
		t.Fatalf("rm default with one left: %q", errOut)
	}
	_, errOut = e.must("profile", "rm", "c", "-q")
	if errOut != "" || len(e.load().Profiles) != 0 {
		t.Fatalf("-q rm: %q", errOut)
	}
	for _, args := range [][]string{{"profile", "rm", "zz"}, {"profile", "use", "zz"}} {
		if _, errOut, code := e.run(args...); code != 2 || !strings.Contains(errOut, `unknown profile "zz"`) {
			t.Fatalf("%v: %d %q", args, code, errOut)
		}
	}
}

func TestProfileBrokenConfigIsExit2(t *testing.T) {
	e := newProfileEnv(t)
	os.MkdirAll(filepath.Dir(e.path), 0o700)
	os.WriteFile(e.path, []byte("[profiles.w]\nmodle = \"x\"\n"), 0o600)
	for _, args := range [][]string{{"profile", "list"}, {"profile", "show", "w"}, {"profile", "set", "w"}} {
		_, errOut, code := e.run(args...)
		if code != 2 || !strings.Contains(errOut, `unknown key "profiles.w.modle"`) || !strings.Contains(errOut, e.path+":2:") {
			t.Fatalf("%v: %d %q", args, code, errOut)
		}
	}
	// diagnose reports it as a failed check instead.
	out, _, code := e.run("profile", "diagnose")
	if code != 1 || !strings.HasPrefix(out, "FAIL  config") {
		t.Fatalf("diagnose: %d %q", code, out)
	}
}

// fakeModels answers GET /models like an OpenAI-compatible server that
// accepts only key "good".
func fakeModels(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path != "/v1/models":
			http.NotFound(w, r)
		case r.Header.Get("Authorization") != "Bearer good":
			w.WriteHeader(http.StatusUnauthorized)
		default:
			w.Write([]byte(`{"data":[{"id":"m"}]}`))
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestProfileDiagnose(t *testing.T) {
	srv := fakeModels(t)
	e := newProfileEnv(t)
	// The fake listens on 127.0.0.1, where a key is optional: name one
	// explicitly so that the key checks below mean something.
	e.must("profile", "set", "fake", "--base-url", srv.URL+"/v1", "--model", "m", "--key-env", "FAKE_KEY")

	e.vars["FAKE_KEY"] = "good"
	out, _, code := e.run("profile", "diagnose")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for _, want := range []string{"ok    config", "ok    profile   \"fake\", protocol openai", "ok    model     m", "ok    key       set, from env FAKE_KEY", "ok    base_url", "ok    endpoint  GET " + srv.URL + "/v1/models: HTTP 200 in "} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "good") {
		t.Fatalf("key printed:\n%s", out)
	}

	e.vars["FAKE_KEY"] = "bad"
	out, _, code = e.run("profile", "diagnose", "fake")
	if code != 1 || !strings.Contains(out, "FAIL  endpoint  key rejected") || !strings.Contains(out, "HTTP 401") {
		t.Fatalf("rejected key: exit %d\n%s", code, out)
	}

	out, _, code = e.run("profile", "diagnose", "fake", "-o", "json")
	var rep diagnoseReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 1 || rep.OK || rep.Profile != "fake" || len(rep.Checks) != 6 {
		t.Fatalf("json: exit %d %s (%v)", code, out, err)
	}
	last := rep.Checks[5]
	if last.Name != "endpoint" || last.OK || last.HTTPStatus != 401 {
		t.Fatalf("endpoint check: %+v", last)
	}

	// On 127.0.0.1 a key is optional, but a server that asks for one fails.
	delete(e.vars, "FAKE_KEY")
	out, _, code = e.run("profile", "diagnose", "fake")
	if code != 1 || !strings.Contains(out, "ok    key       none needed") || !strings.Contains(out, "FAIL  endpoint  the server wants a key") || !strings.Contains(out, "set FAKE_KEY") {
		t.Fatalf("missing key: exit %d\n%s", code, out)
	}

	// A wrong base URL (no /v1) shows as a 404.
	e.must("profile", "set", "fake", "--base-url", srv.URL)
	e.vars["FAKE_KEY"] = "good"
	out, _, code = e.run("profile", "diagnose", "fake")
	if code != 1 || !strings.Contains(out, "HTTP 404") || !strings.Contains(out, "check base_url") {
		t.Fatalf("404: exit %d\n%s", code, out)
	}

	if _, _, code := e.run("profile", "diagnose", "nope"); code != 1 {
		t.Fatalf("unknown profile: exit %d", code)
	}
}

func TestProbeEndpointAuthPlacement(t *testing.T) {
	var got http.Header
	var gotQuery string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, gotQuery = r.Header.Clone(), r.URL.RawQuery+" "+r.URL.Path
	}))
	defer srv.Close()
	for _, tc := range []struct {
		r      config.Resolved
		header string
		value  string
		path   string
	}{
		{config.Resolved{Protocol: "anthropic", APIKey: "k"}, "X-Api-Key", "k", "/v1/models"},
		{config.Resolved{Protocol: "gemini", APIKey: "k"}, "X-Goog-Api-Key", "k", "/v1beta/models"},
		{config.Resolved{Protocol: "openai-responses", APIKey: "k"}, "Authorization", "Bearer k", "/models"},
		{config.Resolved{Protocol: "openai", APIKey: "k", AuthHeader: "api-key", Query: map[string]string{"api-version": "2024-10-21"}}, "Api-Key", "k", "/models"},
	} {
		r := tc.r
		r.BaseURL = srv.URL
		c := probeEndpoint(context.Background(), &r, http.DefaultTransport, time.Minute)
		if !c.OK || got.Get(tc.header) != tc.value || !strings.HasSuffix(gotQuery, tc.path) {
			t.Errorf("%s: %+v, header %s=%q, query+path %q", r.Protocol, c, tc.header, got.Get(tc.header), gotQuery)
		}
		if r.AuthHeader != "" && (got.Get("Authorization") != "" || !strings.HasPrefix(gotQuery, "api-version=2024-10-21")) {
			t.Errorf("azure: %v %q", got, gotQuery)
		}
		if r.Protocol == "anthropic" && got.Get("anthropic-version") == "" {
			t.Error("anthropic-version missing")
		}
	}
}

func TestProbeEndpointNoAnswerAndRedirect(t *testing.T) {
	block := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-block:
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	defer close(block)
	r := &config.Resolved{Protocol: "openai", BaseURL: slow.URL, APIKey: "k"}
	c := probeEndpoint(context.Background(), r, http.DefaultTransport, 20*time.Millisecond)
	if c.OK || !strings.Contains(c.Detail, "no answer within") {
		t.Fatalf("slow server: %+v", c)
	}

	var leaked atomic.Bool
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { leaked.Store(true) }))
	defer other.Close()
	redir := httptest.NewServer(http.RedirectHandler(other.URL+"/models", http.StatusFound))
	defer redir.Close()
	r = &config.Resolved{Protocol: "anthropic", BaseURL: redir.URL, APIKey: "k"}
	c = probeEndpoint(context.Background(), r, http.DefaultTransport, time.Minute)
	if c.OK || !strings.Contains(c.Detail, "redirected") || leaked.Load() {
		t.Fatalf("redirect: %+v leaked=%v", c, leaked.Load())
	}

	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	r = &config.Resolved{Protocol: "openai", BaseURL: closed.URL}
	if c := probeEndpoint(context.Background(), r, http.DefaultTransport, time.Minute); c.OK || c.Detail == "" {
		t.Fatalf("closed server: %+v", c)
	}
}

func TestParseParamValue(t *testing.T) {
	for in, want := range map[string]any{"0.2": 0.2, "3": int64(3), "1e3": 1000.0, "true": true, "bob": "bob", `"quoted"`: "quoted", "null": "null"} {
		if got := parseParamValue(in); got != want {
			t.Errorf("parseParamValue(%q) = %#v, want %#v", in, got, want)
		}
	}
}

func TestProbeEndpointWithKnownMissingKey(t *testing.T) {
	srv := fakeModels(t)
	r := &config.Resolved{Protocol: "openai", BaseURL: srv.URL + "/v1", KeyProblem: "no API key: set X"}
	c := probeEndpoint(context.Background(), r, http.DefaultTransport, time.Minute)
	if !c.OK || c.HTTPStatus != 401 || !strings.Contains(c.Detail, "reachable") {
		t.Fatalf("%+v", c)
	}
}

// TestDiagnoseVersionedBaseURL runs `tavo profile diagnose` on profiles
// whose base URL already ends in the API version: the probe must not add a
// second one (it once asked Anthropic for …/v1/v1/models).
func TestDiagnoseVersionedBaseURL(t *testing.T) {
	srv := fake.NewServer(t)
	e := newProfileEnv(t)
	for _, tc := range []struct{ protocol, base, want string }{
		{"anthropic", "/v1", "/v1/models"},
		{"anthropic", "/proxy/v1/", "/proxy/v1/models"},
		{"gemini", "/v1beta", "/v1beta/models"},
		{"openai", "/v1/", "/v1/models"},
		{"openai-responses", "/v1", "/v1/models"},
	} {
		e.must("profile", "set", "p", "--protocol", tc.protocol, "--base-url", srv.URL+tc.base, "--model", "m", "--key-env", "P_KEY")
		e.vars["P_KEY"] = "k"
		out, _, code := e.run("profile", "diagnose", "p")
		if code != 0 || !strings.Contains(out, "ok    endpoint  GET "+srv.URL+tc.want+": HTTP 200 in ") {
			t.Errorf("%s %s: exit %d\n%s", tc.protocol, tc.base, code, out)
		}
		reqs := srv.Requests()
		if last := reqs[len(reqs)-1]; last.Path != tc.want {
			t.Errorf("%s %s: probed %s", tc.protocol, tc.base, last.Path)
		}
	}
}

// TestDiagnoseSendsWhatARunSends resolves profiles with every kind of
// override, then sends diagnose's probe and a run's request for each to
// the fake: the probe must reach the run's API root with the run's query
// and headers, the profile's anthropic-version and auth header included.
func TestDiagnoseSendsWhatARunSends(t *testing.T) {
	srv := fake.NewServer(t)
	runPath := map[providers.Protocol]string{
		providers.ProtocolOpenAI: "/chat/completions", providers.ProtocolOpenAIResponses: "/responses",
		providers.ProtocolAnthropic: "/messages", providers.ProtocolGemini: "/models/m:generateContent",
	}
	profiles := []config.Profile{
		{BaseURL: srv.URL + "/v1"},
		{BaseURL: srv.URL + "/gw/"},
		{BaseURL: srv.URL, Headers: map[string]string{"anthropic-version": "2024-10-22", "X-Team": "core"}},
		{BaseURL: srv.URL + "/openai", AuthHeader: "api-key", Query: map[string]string{"api-version": "2024-10-21"}},
	}
	for _, proto := range providers.AllProtocols() {
		for i, p := range profiles {
			p.Protocol, p.Model, p.APIKey = string(proto), "m", "k"
			cfg := &config.Config{Profiles: map[string]*config.Profile{"p": &p}}
			r, err := cfg.Resolve(config.Overrides{Profile: "p"}, func(string) string { return "" })
			if err != nil {
				t.Fatal(err)
			}
			// An Azure-style auth header is not the API's: the fake checks
			// keys only where the profile speaks the API as it is.
			srv.CheckRoutes(p.AuthHeader == "")
			before := len(srv.Requests())
			if c := probeEndpoint(context.Background(), r, http.DefaultTransport, time.Minute); !c.OK {
				t.Fatalf("%s %d: %+v", proto, i, c)
			}
			srv.Enqueue(fake.Reply{Text: "hi"})
			prov, err := codecs.New(r.Protocol, r.ProviderConfig())
			if err != nil {
				t.Fatal(err)
			}
			req := &providers.Request{Model: "m", Messages: []providers.Message{{Role: providers.RoleUser, Parts: []providers.Part{{Type: providers.PartText, Text: "hi"}}}}}
			if _, err := prov.Complete(context.Background(), req, &providertest.Sink{}); err != nil {
				t.Fatalf("%s %d: run: %v", proto, i, err)
			}
			got := srv.Requests()[before:]
			probe, run := got[0], got[1]
			if root, _ := strings.CutSuffix(run.Path, runPath[proto]); probe.Path != root+"/models" {
				t.Errorf("%s %d: probe %s, run %s", proto, i, probe.Path, run.Path)
			}
			if probe.Query != run.Query {
				t.Errorf("%s %d: query: probe %q, run %q", proto, i, probe.Query, run.Query)
			}
			for _, h := range []http.Header{probe.Header, run.Header} {
				h.Del("Content-Length")
				h.Del("Accept-Encoding")
			}
			if !equalHeaders(probe.Header, run.Header) {
				t.Errorf("%s %d: headers\nprobe %v\nrun   %v", proto, i, probe.Header, run.Header)
			}
			if v := p.Headers["anthropic-version"]; v != "" && probe.Header.Get("Anthropic-Version") != v {
				t.Errorf("%s %d: anthropic-version %q", proto, i, probe.Header.Get("Anthropic-Version"))
			}
			if p.AuthHeader != "" && (probe.Header.Get("Api-Key") != "k" || probe.Header.Get("Authorization") != "") {
				t.Errorf("%s %d: auth_header: %v", proto, i, probe.Header)
			}
		}
	}
}

func equalHeaders(a, b http.Header) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if strings.Join(v, "\x00") != strings.Join(b[k], "\x00") {
			return false
		}
	}
	return true
}
