package tools

import (
	"slices"
	"testing"
)

func searchCatalog(t *testing.T) *Catalog {
	t.Helper()
	specs := []struct{ name, id, desc string }{
		{"tavo_file_list", "", "List the saved files of a scope, sorted by name, with size and MIME type."},
		{"tavo_file_load", "", "Read a saved file's content."},
		{"tavo_file_save", "", "Save content to a file, overwriting it."},
		{"tavo_var_get", "", "Read a variable by its dotted name."},
		{"tavo_var_list", "", "List variables of a scope."},
		{"tavo_memory_current", "", "Return the long-term memories and whether injection is on."},
		{"tavo_todo_write", "", "Replace the to-do list of the session."},
		{"weather", "mcp/wx:weather", "Current weather for a city."},
	}
	var ts []Tool
	for _, s := range specs {
		ft := newTool(s.name, nil)
		ft.spec.ID = s.id
		ft.spec.Description = s.desc
		if s.id != "" {
			ft.spec.Source = SourceMCP
		}
		ts = append(ts, ft)
	}
	return mustCatalog(t, ts...)
}

func names(specs []Spec) []string {
	out := []string{}
	for _, s := range specs {
		out = append(out, s.Name)
	}
	return out
}

func TestSearchRanking(t *testing.T) {
	c := searchCatalog(t)
	tests := []struct {
		query string
		limit int
		want  []string
	}{
		// Name words outweigh description words; ties go by name.
		{"list files in the current chat", 3, []string{"tavo_file_list", "tavo_file_load", "tavo_file_save"}},
		{"variables", 0, []string{"tavo_var_get", "tavo_var_list"}},
		{"tavo_todo_write", 5, []string{"tavo_todo_write"}},
		{"memory", 5, []string{"tavo_memory_current"}},
		{"wx weather", 5, []string{"weather"}},
		{"save", 1, []string{"tavo_file_save"}},
		{"zebra", 5, []string{}},
		{"the a of", 5, []string{}},
		{"", 5, []string{}},
	}
	for _, tt := range tests {
		got := names(c.Search(tt.query, tt.limit, nil))
		if !slices.Equal(got, tt.want) {
			t.Errorf("Search(%q, %d) = %v, want %v", tt.query, tt.limit, got, tt.want)
		}
	}
}

func TestSearchSkipAndDeterminism(t *testing.T) {
	c := searchCatalog(t)
	skip := func(name string) bool { return name == "tavo_file_list" }
	got := names(c.Search("list", 5, skip))
	if !slices.Equal(got, []string{"tavo_var_list", "tavo_todo_write"}) {
		t.Fatalf("skip ignored: %v", got)
	}
	first := names(c.Search("file read name", 0, nil))
	for range 20 {
		if again := names(c.Search("file read name", 0, nil)); !slices.Equal(again, first) {
			t.Fatalf("order changed: %v then %v", first, again)
		}
	}
}
