package tools

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestCatalogAddRejects(t *testing.T) {
	// Extension and MCP schemas are compiled by Add itself.
	withSchema := func(name, schema string) funcTool {
		ft := newTool(name, nil)
		ft.spec.Parameters = json.RawMessage(schema)
		ft.spec.ID = "mcp/srv:" + name
		ft.spec.Source = SourceMCP
		return ft
	}
	withID := func(name, id string) funcTool {
		ft := newTool(name, nil)
		ft.spec.ID = id
		return ft
	}
	tests := []struct {
		name string
		tool Tool
		want string
	}{
		{"empty name", newTool("", nil), "tool name"},
		{"space in name", newTool("a b", nil), "tool name"},
		{"dot in name", newTool("a.b", nil), "tool name"},
		{"name too long", newTool(strings.Repeat("a", 65), nil), "tool name"},
		{"duplicate name", newTool("base", nil), "already registered"},
		{"duplicate id", withID("other", "base"), `already used by tool "base"`},
		{"no schema", withSchema("s1", ""), "empty"},
		{"schema not JSON", withSchema("s2", "{"), "not valid JSON"},
		{"array schema", withSchema("s3", `{"type":"array"}`), "object schema"},
		{"typeless schema", withSchema("s4", `{"properties":{}}`), "object schema"},
		{"bad keyword value", withSchema("s5", `{"type":"object","properties":{"a":{"type":"nonsense"}}}`), "does not compile"},
		{"bad pattern", withSchema("s6", `{"type":"object","properties":{"a":{"pattern":"("}}}`), "does not compile"},
		{"remote ref", withSchema("s7", `{"type":"object","properties":{"a":{"$ref":"https://example.com/s.json"}}}`), "does not compile"},
		{"file ref", withSchema("s8", `{"type":"object","properties":{"a":{"$ref":"file:///etc/passwd"}}}`), "does not compile"},
		{"nil tool", nil, "nil"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustCatalog(t, newTool("base", nil))
			var err error
			if tt.tool == nil {
				err = c.Add(nil)
			} else {
				err = c.Add(tt.tool)
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Add = %v, want an error containing %q", err, tt.want)
			}
			if c.Len() != 1 {
				t.Fatalf("a rejected tool was added: %d tools", c.Len())
			}
		})
	}
}

func TestBuiltinSchemaCompiledOnFirstUse(t *testing.T) {
	bad := newTool("bad", nil)
	bad.spec.Parameters = json.RawMessage(`{"type":"object","properties":{"a":{"type":"nonsense"}}}`)
	c := mustCatalog(t, bad) // accepted: built-in schemas are compiled lazily
	if _, err := c.Validate("bad", []byte(`{}`)); err == nil || err.Code != CodeInternalError {
		t.Fatalf("Validate = %v, want internal_error", err)
	}
	if err := CheckTool(bad); err == nil || !strings.Contains(err.Error(), "does not compile") {
		t.Fatalf("CheckTool = %v", err)
	}
	if err := CheckTool(NewToolSearch()); err != nil {
		t.Fatal(err)
	}
	if err := CheckTool(newTool("a b", nil)); err == nil {
		t.Fatal("CheckTool accepted a bad name")
	}
}

func TestCatalogAccepts(t *testing.T) {
	ok := []string{"a", "A-z_09", strings.Repeat("x", 64)}
	for _, n := range ok {
		if _, err := NewCatalog(newTool(n, nil)); err != nil {
			t.Errorf("name %q rejected: %v", n, err)
		}
	}
	draft7 := newTool("d7", nil)
	draft7.spec.Parameters = json.RawMessage(`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"n":{"type":"integer"}}}`)
	c := mustCatalog(t, draft7)
	if _, err := c.Validate("d7", []byte(`{"n":"x"}`)); err == nil || err.Details["path"] != "n" {
		t.Fatalf("draft-07 schema not applied: %v", err)
	}
}

func TestCatalogGetSpecsResident(t *testing.T) {
	b := newTool("b_tool", nil)
	b.spec.Resident = true
	a := newTool("a_tool", nil)
	ext := newTool("c_tool", nil)
	ext.spec.ID = "extension/x:c"
	ext.spec.Source = SourceCommand
	c := mustCatalog(t, b, ext, a)

	var names []string
	for _, s := range c.Specs() {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, []string{"a_tool", "b_tool", "c_tool"}) {
		t.Fatalf("Specs order %v", names)
	}
	if got := c.Resident(); !slices.Equal(got, []string{"b_tool"}) {
		t.Fatalf("Resident = %v", got)
	}
	s, ok := c.SpecOf("a_tool")
	if !ok || s.ID != "a_tool" || s.Source != SourceBuiltin {
		t.Fatalf("defaults not filled: %+v", s)
	}
	if s, _ := c.SpecOf("c_tool"); s.ID != "extension/x:c" || s.Source != SourceCommand {
		t.Fatalf("explicit ID/source lost: %+v", s)
	}
	if tool, ok := c.Get("c_tool"); !ok || tool.Spec().Name != "c_tool" {
		t.Fatal("Get c_tool failed")
	}
	if _, ok := c.Get("zzz"); ok {
		t.Fatal("Get found a missing tool")
	}
	var nilCat *Catalog
	if _, ok := nilCat.Get("a"); ok || nilCat.Specs() != nil || nilCat.Len() != 0 {
		t.Fatal("nil catalog is not empty")
	}
}
