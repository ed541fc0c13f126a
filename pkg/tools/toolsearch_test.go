package tools

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func toolSearchEnv(t *testing.T) (*Executor, *Env) {
	t.Helper()
	c := searchCatalog(t)
	if err := c.Add(NewToolSearch()); err != nil {
		t.Fatal(err)
	}
	long := newTool("tavo_file_delete", nil)
	long.spec.Description = "Delete a saved file. Deleting a missing file is resource_not_found."
	if err := c.Add(long); err != nil {
		t.Fatal(err)
	}
	env := &Env{Catalog: c, Visibility: NewVisibility(ToolSearchName, "tavo_file_list")}
	return &Executor{Catalog: c}, env
}

func TestToolSearchRevealsNextRound(t *testing.T) {
	x, env := toolSearchEnv(t)
	out := x.Execute(context.Background(), env, call(ToolSearchName, `{"query":"delete or load a file","limit":2}`))
	if !out.OK {
		t.Fatal(out.Envelope)
	}
	want := `{"ok":true,"result":{"matches":[` +
		`{"name":"tavo_file_delete","description":"Delete a saved file."},` +
		`{"name":"tavo_file_load","description":"Read a saved file's content."}],` +
		`"note":"These tools are loaded and callable from your next response; their full descriptions and parameters come with it."}}`
	if out.Envelope != want {
		t.Fatalf("envelope\n got %s\nwant %s", out.Envelope, want)
	}
	if env.Visibility.IsVisible("tavo_file_delete") {
		t.Fatal("visible in the same round")
	}
	if added := env.Visibility.Advance(); !slices.Equal(added, []string{"tavo_file_delete", "tavo_file_load"}) {
		t.Fatalf("Advance = %v", added)
	}
}

func TestToolSearchSkipsVisibleAndExtensions(t *testing.T) {
	x, env := toolSearchEnv(t)
	out := x.Execute(context.Background(), env, call(ToolSearchName, `{"query":"list weather tool search"}`))
	var res struct {
		Result SearchResult `json:"result"`
	}
	if err := json.Unmarshal([]byte(out.Envelope), &res); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range res.Result.Matches {
		got = append(got, m.Name)
	}
	// tavo_file_list is visible, weather is an MCP tool, tool search is itself.
	if !slices.Equal(got, []string{"tavo_var_list", "tavo_todo_write"}) {
		t.Fatalf("matches %v", got)
	}
}

func TestToolSearchNoMatchAndErrors(t *testing.T) {
	x, env := toolSearchEnv(t)
	out := x.Execute(context.Background(), env, call(ToolSearchName, `{"query":"quantum teleport"}`))
	if !out.OK || !strings.Contains(out.Envelope, `"matches":[]`) || len(env.Visibility.Advance()) != 0 {
		t.Fatalf("no-match: %s", out.Envelope)
	}
	tests := []struct{ args, path string }{
		{`{"query":"   "}`, "query"},
		{`{"query":""}`, "query"},
		{`{}`, "query"},
		{`{"query":"x","limit":21}`, "limit"},
		{`{"query":"x","limit":0}`, "limit"},
		{`{"query":"x","extra":1}`, "extra"},
	}
	for _, tt := range tests {
		out := x.Execute(context.Background(), env, call(ToolSearchName, tt.args))
		if out.Err == nil || out.Err.Code != CodeInvalidArguments || out.Err.Details["path"] != tt.path {
			t.Errorf("%s: %s", tt.args, out.Envelope)
		}
	}
	if s := NewToolSearch().Spec(); !s.Resident || s.Source != SourceBuiltin {
		t.Fatal("tool search must be a resident built-in")
	}
}

func TestSummary(t *testing.T) {
	tests := map[string]string{
		"One. Two.":              "One.",
		"Line one\nline two":     "Line one",
		"v1.2 is fine. Second.":  "v1.2 is fine.",
		strings.Repeat("é", 300): strings.Repeat("é", 200) + "…",
	}
	for in, want := range tests {
		if got := Summary(in); got != want {
			t.Errorf("Summary(%.20q) = %.30q, want %.30q", in, got, want)
		}
	}
}
