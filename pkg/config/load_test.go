package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadMissingFileIsEmpty(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope", "config.toml")
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if c.Path() != path || len(c.Profiles) != 0 || c.DefaultProfile != "" {
		t.Fatalf("%+v", c)
	}
}

const fullConfig = `
default_profile = "work"

[profiles.work]
protocol = "openai"
model = "gpt-4o"
api_key_env = "WORK_KEY"
headers = { "X-Team" = "a" }
context_window = 128000
max_output_tokens = 4096
fetch_model = "gpt-4o-mini"
fetch_context_window = 64000
tools = true
dynamic_tools = false
max_rounds = 8
max_tool_calls = 10
tool_timeout = "30s"
timeout = "5m"
reasoning_context = "since-user"
stream = false
params = { temperature = 0.2, top = { k = 3 } }
prices = { input_per_mtok = 2.5, output_per_mtok = 10.0, cached_input_per_mtok = 1.25 }

[profiles.azure]
base_url = "https://x.openai.azure.com/openai/deployments/d"
model = "gpt-4o"
api_key_env = "AZURE_OPENAI_API_KEY"
auth_header = "api-key"
query = { api-version = "2024-10-21" }

[search]
default = "tav"
fallback = ["sx"]

[search.apis.tav]
engine = "tavily"
api_key_env = "TAVILY_API_KEY"
depth = "advanced"
max_results = 5
chunks_per_source = 2

[search.apis.sx]
engine = "searxng"
base_url = "http://127.0.0.1:8888"

[tools.wc]
description = "count words"
command = ["wc", "-w"]
schema = '{"type":"object","properties":{"text":{"type":"string"}}}'
timeout = "10s"
confirm = true
env = { LC_ALL = "C" }

[mcp.files]
command = ["mcp-files"]
args = ["--root", "/tmp"]

[mcp.remote]
url = "https://mcp.example.com/mcp"
headers = { Authorization = "Bearer x" }
`

func TestLoadSaveRoundTrip(t *testing.T) {
	path := writeConfig(t, fullConfig)
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	w := c.Profiles["work"]
	if w.FetchModel != "gpt-4o-mini" || w.FetchContextWindow != 64000 {
		t.Fatalf("fetch model: %+v", *w)
	}
	if w.Model != "gpt-4o" || !*w.Tools || *w.DynamicTools || w.MaxRounds != 8 || w.Prices.CachedInputPerMTok != 1.25 {
		t.Fatalf("work profile decoded wrongly: %+v", *w)
	}
	if w.Params["temperature"] != 0.2 {
		t.Fatalf("params: %#v", w.Params)
	}
	if c.Profiles["azure"].Query["api-version"] != "2024-10-21" || c.Search.APIs["tav"].ChunksPerSource != 2 ||
		c.Tools["wc"].Command[1] != "-w" || c.MCP["remote"].Headers["Authorization"] != "Bearer x" {
		t.Fatal("sections decoded wrongly")
	}

	// Save elsewhere and load again: nothing is lost.
	out := filepath.Join(t.TempDir(), "sub", "dir", "config.toml")
	c.path = out
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	c2, err := Load(out)
	if err != nil {
		t.Fatalf("reloading saved file: %v", err)
	}
	c2.path, c.path = "", ""
	if !reflect.DeepEqual(c, c2) {
		t.Fatalf("round trip changed the config:\n%+v\n%+v", c, c2)
	}
	data, _ := os.ReadFile(out)
	if !strings.HasPrefix(string(data), "# tavo configuration") {
		t.Fatalf("saved file lacks its header:\n%s", data)
	}
	if runtime.GOOS != "windows" {
		fi, _ := os.Stat(out)
		di, _ := os.Stat(filepath.Dir(out))
		if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
			t.Fatalf("modes: file %v dir %v", fi.Mode().Perm(), di.Mode().Perm())
		}
	}
	entries, _ := os.ReadDir(filepath.Dir(out))
	if len(entries) != 1 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
}

func TestSaveThroughSymlink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "tavo.toml")
	os.MkdirAll(filepath.Dir(real), 0o700)
	os.WriteFile(real, []byte(`default_profile = ""`), 0o600)
	link := filepath.Join(dir, "config.toml")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	c, err := Load(link)
	if err != nil {
		t.Fatal(err)
	}
	c.PutProfile("a", &Profile{Model: "m"})
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("Save replaced the symlink with a file")
	}
	data, _ := os.ReadFile(real)
	if !strings.Contains(string(data), "[profiles.a]") {
		t.Fatalf("target not updated:\n%s", data)
	}
}

func TestSaveRefusesInvalidAndPathless(t *testing.T) {
	c := &Config{}
	if err := c.Save(); err == nil {
		t.Fatal("saved a config without a path")
	}
	path := filepath.Join(t.TempDir(), "c.toml")
	c, _ = Load(path)
	c.PutProfile("x", &Profile{Protocol: "bogus"})
	if err := c.Save(); err == nil {
		t.Fatal("saved an invalid profile")
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("an invalid config reached the disk")
	}
}

func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"syntax", "default_profile = \n", []string{":1:", "config "}},
		{"unknown key", "[profiles.w]\nprotocol = \"openai\"\nmodle = \"x\"\n", []string{":3:", `unknown key "profiles.w.modle"`, `did you mean "profiles.w.model"?`}},
		{"unknown table", "[profile.w]\nmodel = \"x\"\n", []string{`unknown key "profile.w"`, `did you mean "profiles.w"?`}},
		{"unknown top key", "default = \"w\"\nfoo = 1\n", []string{`unknown key "default"`, "1 more unknown key"}},
		{"wrong type", "[profiles.w]\nmax_rounds = \"five\"\n", []string{":2:", "max_rounds: must be an integer, not a string"}},
		{"wrong type 2", "[profiles.w]\nmodel = 3\n", []string{"model: must be a string, not an integer"}},
		{"protocol", "[profiles.w]\nprotocol = \"opnai\"\n", []string{`profile "w"`, `protocol "opnai"`, "openai-responses"}},
		{"reasoning", "[profiles.w]\nreasoning_context = \"all\"\n", []string{"reasoning_context", "since-user"}},
		{"duration", "[profiles.w]\ntool_timeout = \"5\"\n", []string{"tool_timeout", "not a duration"}},
		{"negative duration", "[profiles.w]\ntimeout = \"-1s\"\n", []string{"timeout must be 0 (no limit) or 1ms-720h, got -1s"}},
		{"rounds", "[profiles.w]\nmax_rounds = -1\n", []string{"max_rounds must be 1-1000, got -1"}},
		{"fetch window", "[profiles.w]\nfetch_context_window = 100\n", []string{"fetch_context_window must be"}},
		{"extract threshold", "[fetch]\nextract_threshold = 10\n", []string{"fetch: extract_threshold must be 0 (the default 50000) or 1000-100000000, got 10"}},
		{"output vs window", "[profiles.w]\ncontext_window = 100\nmax_output_tokens = 100\n", []string{"smaller than context_window"}},
		{"base url", "[profiles.w]\nbase_url = \"localhost:11434\"\n", []string{"base_url", "http"}},
		{"header", "[profiles.w]\nheaders = { \"bad header\" = \"v\" }\n", []string{"not a valid HTTP header name"}},
		{"profile name", "[profiles.\"my work\"]\nmodel = \"m\"\n", []string{`"my work"`}},
		{"search engine", "[search.apis.x]\nengine = \"google\"\n", []string{"search: apis.x", "tavily"}},
		{"search key twice", "[search.apis.x]\nengine = \"tavily\"\napi_key = \"k\"\napi_key_env = \"K\"\n", []string{"not both"}},
		{"search timeout", "[search.apis.x]\nengine = \"brave\"\ntimeout = \"soon\"\n", []string{"timeout"}},
		{"search topic", "[search.apis.x]\nengine = \"brave\"\ntopic = \"sports\"\n", []string{"topic"}},
		{"search default", "[search]\ndefault = \"nope\"\n", []string{`default "nope"`}},
		{"tool command", "[tools.t]\ndescription = \"d\"\n", []string{"tools.t", "command is required"}},
		{"tool schema", "[tools.t]\ncommand = [\"x\"]\nschema = \"{\"\n", []string{"schema is not a JSON object"}},
		{"mcp both", "[mcp.m]\ncommand = [\"x\"]\nurl = \"http://h\"\n", []string{"mcp.m", "not both"}},
		{"mcp none", "[mcp.m]\nargs = [\"x\"]\n", []string{"give command"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeConfig(t, tc.text)
			_, err := Load(path)
			if err == nil {
				t.Fatal("no error")
			}
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("not a *config.Error: %T", err)
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") {
				t.Fatalf("error spans lines: %q", msg)
			}
			if !strings.Contains(msg, path) {
				t.Errorf("error %q does not name the file", msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
		})
	}
}

func TestLoadNeverEchoesSecrets(t *testing.T) {
	// People paste the key itself into api_key_env; the error must not repeat it.
	path := writeConfig(t, "[profiles.w]\napi_key_env = \"sk-proj-SECRET123\"\n")
	_, err := Load(path)
	if err == nil || strings.Contains(err.Error(), "SECRET123") || !strings.Contains(err.Error(), "api_key_env") {
		t.Fatalf("err = %v", err)
	}
	path = writeConfig(t, "[profiles.w]\nheaders = { Authorization = \"Bearer SECRET123\\n\" }\n")
	_, err = Load(path)
	if err == nil || strings.Contains(err.Error(), "SECRET123") {
		t.Fatalf("err = %v", err)
	}
	path = writeConfig(t, "[profiles.w]\nbase_url = \"https://user:SECRET123@exa mple.com\"\n")
	_, err = Load(path)
	if err == nil || strings.Contains(err.Error(), "SECRET123") {
		t.Fatalf("err = %v", err)
	}
}

func TestLoadUnreadable(t *testing.T) {
	dir := t.TempDir()
	_, err := Load(dir) // a directory is not a readable file
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v", err)
	}
}

func TestRetentionSection(t *testing.T) {
	c, err := Load(writeConfig(t, "[retention]\nruns = \"90d\"\nkeep_full = 200\naudit = \"36h\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Retention.RunsAge() != 90*24*time.Hour || c.Retention.KeepFull != 200 || c.Retention.AuditAge() != 36*time.Hour {
		t.Fatalf("retention %+v", c.Retention)
	}
	if _, err := Load(writeConfig(t, "[retention]\nruns = \"ninety days\"\n")); err == nil || !strings.Contains(err.Error(), "retention: runs") {
		t.Fatalf("bad age: %v", err)
	}
}

func TestFetchSection(t *testing.T) {
	c, err := Load(writeConfig(t, "[fetch]\nextract_threshold = 8000\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Fetch.Threshold() != 8000 {
		t.Fatalf("threshold %d", c.Fetch.Threshold())
	}
	if (Fetch{}).Threshold() != DefaultExtractThreshold {
		t.Fatal("unset threshold is not the default")
	}
}

func TestSubagentsSection(t *testing.T) {
	var s Subagents
	if d, r, n := s.Limits(); d != 2 || r != 4 || n != 16 {
		t.Fatalf("defaults = %d %d %d", d, r, n)
	}
	s = Subagents{MaxDepth: 1, MaxRunning: 2, MaxPerRun: 3}
	if err := s.validate(); err != nil {
		t.Fatal(err)
	}
	if d, r, n := s.Limits(); d != 1 || r != 2 || n != 3 {
		t.Fatalf("limits = %d %d %d", d, r, n)
	}
	s.MaxDepth = 3
	if err := s.validate(); err == nil || err.Error() != "max_depth must be 1-2, got 3" {
		t.Fatalf("max_depth 3: %v", err)
	}
}
