package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/providers/fake"
	searchfake "github.com/tavo-cli/tavo/pkg/search/fake"
)

// styleEnv is a data directory and config file with a row in every list
// (a session, a run, a file, a variable, a memory note, two profiles, a
// search API) and fakes for the model, search and web servers, so every
// command has something to print.
type styleEnv struct {
	t        *testing.T
	env      map[string]string
	provider *fake.Server
	session  string
	run      string
	web      string
}

func newStyleEnv(t *testing.T) *styleEnv {
	t.Helper()
	dir := t.TempDir()
	provider := fake.NewServer(t)
	sx := searchfake.NewSearXNG()
	t.Cleanup(sx.Close)
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<html><head><title>Page</title></head><body><h1>Page</h1><p>Hello.</p></body></html>")
	}))
	t.Cleanup(web.Close)
	cfg := filepath.Join(dir, "config.toml")
	toml := fmt.Sprintf(`default_profile = "main"
[profiles.main]
protocol = "openai"
model = "m1"
context_window = 100000
base_url = %[1]q
api_key_env = "FAKE_KEY"
params = { temperature = 0.5 }
headers = { "X-Trace-Id" = "1" }
[profiles.other]
protocol = "anthropic"
model = "m2"
base_url = %[1]q
api_key_env = "FAKE_KEY"
[search]
default = "sx"
[search.apis.sx]
engine = "searxng"
base_url = %[2]q
[search.apis.spare]
engine = "searxng"
base_url = %[2]q
`, provider.URL, sx.URL())
	if err := os.WriteFile(cfg, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	e := &styleEnv{t: t, provider: provider, web: web.URL, env: map[string]string{
		"TAVO_CONFIG":   cfg,
		"TAVO_DATA_DIR": filepath.Join(dir, "data"),
		"HOME":          filepath.Join(dir, "home"),
		"FAKE_KEY":      "sk-test",
	}}
	e.must("session", "create", "--title", "Style check")
	e.session = strings.TrimSpace(e.must("session", "list", "-o", "ndjson", "--jq", ".id"))
	provider.Enqueue(fake.Reply{Text: "Hello there."}, fake.Reply{Text: "Again."}, fake.Reply{Text: "Summary."})
	e.must("run", "--session", e.session, "-o", "ndjson", "Say hello")
	e.run = strings.TrimSpace(e.must("runs", "list", "-o", "ndjson", "--jq", ".id"))
	e.must("file", "put", "notes.txt", "-", "--stdin", "some notes\n")
	e.must("var", "set", "answerValue", `{"innerKey":1}`)
	e.must("memory", "append", "remember this")
	e.must("fetch", e.web+"/page.html")
	return e
}

// exec runs tavo with args (and stdin) and returns its exit code, stdout
// and stderr.
func (e *styleEnv) exec(stdin string, args ...string) (int, string, string) {
	ios, in, out, errOut := cli.Test()
	in.WriteString(stdin)
	f := &Factory{IO: ios, Getenv: func(k string) string { return e.env[k] }}
	code := ExecuteWith(context.Background(), f, args)
	return code, out.String(), errOut.String()
}

// must runs tavo and fails the test unless it exits 0. A "--stdin" pair in
// args is taken out and fed to the command's stdin.
func (e *styleEnv) must(args ...string) string {
	e.t.Helper()
	stdin := ""
	for i, a := range args {
		if a == "--stdin" && i+1 < len(args) {
			stdin = args[i+1]
			args = append(args[:i:i], args[i+2:]...)
			break
		}
	}
	code, out, errOut := e.exec(stdin, args...)
	if code != 0 {
		e.t.Fatalf("tavo %s: exit %d: %s", strings.Join(args, " "), code, errOut)
	}
	return out
}

// dataPaths are the places in tavo's JSON that hold data rather than
// tavo's own fields: what a person or a model wrote (a variable's value, a
// tool's arguments, a JSON Schema's property names, a profile's params and
// headers). Their keys keep whatever style they were written in.
var dataPaths = []string{
	".value", ".params", ".headers", ".query",
	".parameters", ".input_schema", ".schema", ".arguments", ".result",
	".defaults.params", ".defaults.headers", ".profile.params", ".profile.headers",
}

func isDataPath(p string) bool {
	for _, d := range dataPaths {
		if strings.HasSuffix(strings.ReplaceAll(p, "[]", ""), d) {
			return true
		}
	}
	return false
}

// rawOutput are the commands whose -o json prints data as it was stored,
// not an object of tavo's, with the reason.
var rawOutput = map[string]string{
	"tavo file get":    "prints the file's content",
	"tavo var get":     "prints the variable's value",
	"tavo completion":  "prints a shell script",
	"tavo runs resume": "a run, whose -o json is tavo run's (checked there)",
}

// namedKeys are the commands whose -o json is an object keyed by names a
// person chose (variable names), so only the values below are checked.
var namedKeys = map[string]bool{"tavo var ls": true}

// jsonCases gives every leaf command the arguments it runs with in a
// styleEnv; nil marks a command with no JSON output, with the reason.
func (e *styleEnv) jsonCases() map[string][]string {
	return map[string][]string{
		"tavo artifacts ls":        {},
		"tavo artifacts rm":        {"ART"},
		"tavo artifacts show":      {"ART"},
		"tavo completion":          {"bash"},
		"tavo runs resume":         {},
		"tavo doctor":              {},
		"tavo fetch":               {e.web + "/page.html"},
		"tavo file exists":         {"notes.txt"},
		"tavo file get":            {"notes.txt"},
		"tavo file ls":             {},
		"tavo file put":            {"more.txt", "-", "--stdin", "more\n"},
		"tavo file rm":             {"more.txt"},
		"tavo logs clear":          {},
		"tavo logs list":           {},
		"tavo memory append":       {"another note"},
		"tavo memory clear":        {},
		"tavo memory ls":           {},
		"tavo memory rm":           {"NEWNOTE"},
		"tavo memory search":       {"note"},
		"tavo memory set":          {"--enable", "one", "two"},
		"tavo memory show":         {},
		"tavo profile diagnose":    {},
		"tavo profile list":        {},
		"tavo profile rm":          {"other"},
		"tavo profile set":         {"third", "--protocol", "openai", "--model", "m3"},
		"tavo profile show":        {},
		"tavo profile use":         {"main"},
		"tavo read":                {"local://global/notes.txt"},
		"tavo run":                 {"Again please"},
		"tavo runs cancel":         {e.run},
		"tavo runs events":         {e.run},
		"tavo runs list":           {},
		"tavo runs prune":          {"--keep", "10", "--keep-full", "5", "--dry-run"},
		"tavo runs show":           {e.run},
		"tavo search":              {"golang"},
		"tavo search-api fallback": {},
		"tavo search-api list":     {},
		"tavo search-api rm":       {"spare"},
		"tavo search-api set":      {"sx2", "--engine", "searxng", "--base-url", "http://127.0.0.1:1"},
		"tavo search-api show":     {},
		"tavo search-api use":      {"sx"},
		"tavo session compact":     {e.session},
		"tavo session create":      {"--title", "Another"},
		"tavo session delete":      {"NEW"},
		"tavo session list":        {},
		"tavo session read":        {e.session},
		"tavo session rename":      {e.session, "Renamed"},
		"tavo session send":        {e.session, "And again"},
		"tavo session show":        {e.session},
		"tavo store copy":          {"--to", "postgres://tavo@127.0.0.1:1/x?connect_timeout=1"},
		"tavo store migrate":       {},
		"tavo session tree":        {e.session},
		"tavo tools call":          {"tavo_var_get", "--args", `{"name":"answerValue"}`},
		"tavo tools list":          {},
		"tavo tools search":        {"file"},
		"tavo tools show":          {"tavo_ask_user"},
		"tavo var get":             {"answerValue"},
		"tavo var ls":              {},
		"tavo var rm":              {"gone"},
		"tavo var set":             {"other", "2"},
		"tavo version":             {},
		"tavo goals cancel":        {"NEWGOAL"},
		"tavo goals list":          {},
		"tavo goals show":          {"NEWGOAL"},
		"tavo loops cancel":        {"NEWLOOP"},
		"tavo loops create":        {"--session", e.session, "--every", "1m", "Check"},
		"tavo loops list":          {},
		"tavo loops pause":         {"NEWLOOP"},
		"tavo loops resume":        {"NEWPAUSED"},
		"tavo loops show":          {"NEWLOOP"},
		"tavo worker status":       {},
	}
}

// TestJSONKeysAreSnakeCase runs every command of the tree with -o json and
// checks that each key tavo writes is snake_case (docs/output.md). A new
// command fails here until it has a case.
func TestJSONKeysAreSnakeCase(t *testing.T) {
	e := newStyleEnv(t)
	cases := e.jsonCases()
	ios, _, _, _ := cli.Test()
	root := NewCmdRoot(&Factory{IO: ios, Getenv: func(string) string { return "" }})
	var leaves []*cobra.Command
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		if !c.HasSubCommands() {
			if c.Runnable() && !c.Hidden {
				leaves = append(leaves, c)
			}
			return
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
	sort.Slice(leaves, func(i, j int) bool { return leaves[i].CommandPath() < leaves[j].CommandPath() })

	for _, c := range leaves {
		path := c.CommandPath()
		args, ok := cases[path]
		if !ok {
			t.Errorf("%s: no case in jsonCases: add the arguments it runs with", path)
			continue
		}
		for i, a := range args {
			if a == "NEW" {
				// A session made for the command that deletes it.
				e.must("session", "create", "--title", "Doomed")
				args = append([]string(nil), args...)
				args[i] = strings.TrimSpace(e.must("session", "list", "-o", "ndjson", "--jq", ".id"))
			}
			if a == "ART" {
				// An artifact made for the command: a page read through http://.
				e.must("read", e.web+"/page.html")
				args = append([]string(nil), args...)
				args[i] = strings.TrimSpace(e.must("artifacts", "ls", "--limit", "1", "-o", "ndjson", "--jq", ".id"))
			}
			if a == "NEWGOAL" || a == "NEWLOOP" || a == "NEWPAUSED" {
				// A goal or loop made for the command (issue 18).
				args = append([]string(nil), args...)
				switch a {
				case "NEWGOAL":
					args[i] = strings.TrimSpace(e.must("run", "--goal", "done", "--detach", "-o", "json", "--jq", ".goal_id", "Work"))
				default:
					args[i] = strings.TrimSpace(e.must("loops", "create", "--session", e.session, "--every", "1m", "-o", "json", "--jq", ".loop_id", "Check"))
					if a == "NEWPAUSED" {
						e.must("loops", "pause", args[i])
					}
				}
			}
			if a == "NEWNOTE" {
				// A memory note made for the command that removes it.
				e.must("memory", "append", "doomed")
				args = append([]string(nil), args...)
				args[i] = strings.TrimSpace(e.must("memory", "ls", "-o", "json", "--jq", ".items[-1].id"))
			}
		}
		if why, raw := rawOutput[path]; raw {
			_ = why
			continue
		}
		e.provider.Enqueue(fake.Reply{Text: "An answer."})
		full := append(append(strings.Fields(path)[1:], "-o", "json"), args...)
		stdin := ""
		for i, a := range full {
			if a == "--stdin" {
				stdin = full[i+1]
				full = append(full[:i:i], full[i+2:]...)
				break
			}
		}
		code, out, errOut := e.exec(stdin, full...)
		if code > 1 {
			t.Errorf("%s: exit %d: %s", path, code, errOut)
			continue
		}
		if strings.TrimSpace(out) == "" {
			continue // a command that prints nothing on success (rm, use, …)
		}
		dec := json.NewDecoder(strings.NewReader(out))
		for dec.More() {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				t.Errorf("%s -o json: not JSON: %v\n%s", path, err, out)
				break
			}
			data := isDataPath
			if namedKeys[path] {
				data = func(p string) bool { return true }
			}
			bad, err := cli.KeyStyleProblems(raw, data)
			if err != nil {
				t.Errorf("%s: %v", path, err)
			}
			if len(bad) > 0 {
				t.Errorf("%s -o json: keys not snake_case: %s", path, strings.Join(bad, ", "))
			}
		}
	}
}

// TestListsWriteNDJSON checks that every list command writes one JSON
// object per line with -o ndjson, and honours --jq, with rows present.
func TestListsWriteNDJSON(t *testing.T) {
	e := newStyleEnv(t)
	for _, args := range [][]string{
		{"session", "list"}, {"runs", "list"}, {"file", "ls"}, {"var", "ls"},
		{"profile", "list"}, {"search-api", "list"}, {"tools", "list"}, {"logs", "list"},
		{"tools", "search", "file"}, {"runs", "events", e.run}, {"search", "golang"},
	} {
		name := strings.Join(args, " ")
		out := e.must(append(args, "-o", "ndjson")...)
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if out == "" {
			t.Errorf("%s -o ndjson printed nothing", name)
			continue
		}
		for _, l := range lines {
			var obj map[string]any
			if err := json.Unmarshal([]byte(l), &obj); err != nil {
				t.Errorf("%s -o ndjson: line %q is not one JSON object: %v", name, l, err)
			}
		}
		text := e.must(append(args, "-o", "text")...)
		if bytes.HasPrefix([]byte(strings.TrimSpace(text)), []byte("{")) {
			t.Errorf("%s -o text printed JSON: %q", name, text)
		}
		jq := e.must(append(args, "-o", "ndjson", "--jq", "type")...)
		if want := strings.Repeat("object\n", len(lines)); jq != want {
			t.Errorf("%s -o ndjson --jq type = %q, want %q", name, jq, want)
		}
	}
}
