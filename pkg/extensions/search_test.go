package extensions

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// runLike is a catalog and visibility as a run under dynamic loading sets
// them up: resident tools visible, everything else hidden.
type runLike struct {
	cat *tools.Catalog
	vis *tools.Visibility
	x   *tools.Executor
}

func newRunLike(t *testing.T, set *Set) *runLike {
	t.Helper()
	cat := mustCatalog(t, append([]tools.Tool{tools.NewToolSearch()}, set.Tools()...)...)
	return &runLike{
		cat: cat,
		vis: tools.NewVisibility(cat.Resident()...),
		x:   &tools.Executor{Catalog: cat, Budget: tools.NewBudget(tools.MaxResultBytes, tools.MaxRunResultBytes)},
	}
}

func (r *runLike) call(name, args string) tools.Outcome {
	env := &tools.Env{RunID: "run_test", Catalog: r.cat, Visibility: r.vis}
	return r.x.Execute(context.Background(), env, providers.ToolCall{ID: "c", Name: name, Arguments: args})
}

func searchSet(t *testing.T, servers map[string]*config.MCPServer) *Set {
	t.Helper()
	cfg := &config.Config{
		Tools: map[string]*config.CommandTool{"wordcount": {Description: "Count the words of a text.", Command: []string{"wc", "-w"}}},
		MCP:   servers,
	}
	set, err := New(cfg, Options{Getenv: testEnv()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = set.Close() })
	return set
}

func matchNames(t *testing.T, out tools.Outcome) ([]string, searchResult) {
	t.Helper()
	var res searchResult
	if err := json.Unmarshal([]byte(resultText(t, out)), &res); err != nil {
		t.Fatal(err)
	}
	var ns []string
	for _, m := range res.Matches {
		ns = append(ns, m.Name)
	}
	return ns, res
}

func TestExtensionToolSearchRevealsExtensionTools(t *testing.T) {
	r := newRunLike(t, searchSet(t, map[string]*config.MCPServer{"demo": stdioServer("serve")}))
	if got := strings.Join(r.vis.Visible(), ","); got != SearchName+","+tools.ToolSearchName {
		t.Fatalf("visible at first: %s", got)
	}
	// Hidden extension tools are not callable yet.
	wantError(t, r.call("wordcount", `{}`), tools.CodeUnknownTool, "extension_tool_search")

	got, _ := matchNames(t, r.call(SearchName, `{"query":"echo a text back"}`))
	if len(got) == 0 || got[0] != "demo__echo" {
		t.Fatalf("matches = %v", got)
	}
	got, _ = matchNames(t, r.call(SearchName, `{"query":"count words","limit":1}`))
	if strings.Join(got, ",") != "wordcount" {
		t.Fatalf("matches = %v", got)
	}
	added := r.vis.Advance()
	if !contains(added, "demo__echo") || !contains(added, "wordcount") {
		t.Fatalf("revealed = %v", added)
	}
	if got := resultText(t, r.call("demo__echo", `{"text":"now"}`)); got != "echo: now" {
		t.Errorf("echo = %q", got)
	}
	// Visible tools are not offered again.
	if got, _ := matchNames(t, r.call(SearchName, `{"query":"echo a text back"}`)); contains(got, "demo__echo") {
		t.Errorf("visible tool offered again: %v", got)
	}
}

func TestToolSearchesStayApart(t *testing.T) {
	r := newRunLike(t, searchSet(t, map[string]*config.MCPServer{"demo": stdioServer("serve")}))
	// Load the MCP tools into the catalog, then ask tavo_tool_search.
	r.call(SearchName, `{"query":"nothing matches this"}`)
	var res struct{ Matches []struct{ Name string } }
	json.Unmarshal([]byte(resultText(t, r.call(tools.ToolSearchName, `{"query":"echo count words delete item"}`))), &res)
	if len(res.Matches) != 0 {
		t.Errorf("tavo_tool_search revealed extension tools: %v", res.Matches)
	}
	// extension_tool_search never offers built-ins.
	got, _ := matchNames(t, r.call(SearchName, `{"query":"tool search load"}`))
	if contains(got, tools.ToolSearchName) || contains(got, SearchName) {
		t.Errorf("extension_tool_search offered built-ins: %v", got)
	}
}

func TestExtensionToolSearchReportsBrokenServers(t *testing.T) {
	r := newRunLike(t, searchSet(t, map[string]*config.MCPServer{"demo": stdioServer("serve"), "bad": stdioServer("exit")}))
	got, res := matchNames(t, r.call(SearchName, `{"query":"add numbers"}`))
	if !contains(got, "demo__add") {
		t.Errorf("matches = %v", got)
	}
	if len(res.Unavailable) != 1 || !strings.Contains(res.Unavailable[0], `MCP server "bad"`) {
		t.Errorf("unavailable = %v", res.Unavailable)
	}
}

func TestExtensionToolSearchArguments(t *testing.T) {
	r := newRunLike(t, searchSet(t, nil))
	wantError(t, r.call(SearchName, `{"query":"x","limit":21}`), tools.CodeInvalidArguments)
	wantError(t, r.call(SearchName, `{}`), tools.CodeInvalidArguments)
	wantError(t, r.call(SearchName, `{"query":"   "}`), tools.CodeInvalidArguments)
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
