package state

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/tools"
)

func TestSpecs(t *testing.T) {
	names := []string{MemoryCurrentName, MemoryUpdateName, MemoryAppendName,
		MemorySaveName, MemoryEditName, MemoryDeleteName, MemoryListName, MemorySearchName,
		VarGetName, VarSetName, VarDeleteName, VarListName, TodoWriteName}
	all := All(failingOpener)
	if len(all) != len(names) {
		t.Fatalf("%d tools, want %d", len(all), len(names))
	}
	for i, tool := range all {
		s := tool.Spec()
		if s.Name != names[i] || s.ID != s.Name || s.Resident || s.NeedsConfirm || s.Source != tools.SourceBuiltin {
			t.Errorf("spec %d = %+v", i, s)
		}
		if err := tools.CheckTool(tool); err != nil {
			t.Errorf("%s: %v", s.Name, err)
		}
		if len(s.Description) < 120 || len(s.Description) > 1000 {
			t.Errorf("%s: description of %d bytes", s.Name, len(s.Description))
		}
		var schema map[string]any
		if err := json.Unmarshal(s.Parameters, &schema); err != nil || schema["additionalProperties"] != false {
			t.Errorf("%s: schema is not strict: %s", s.Name, s.Parameters)
		}
	}
}

// TestToolSearchFindsThem: the tools are not resident, so tool search is
// the only way in; plain words must find each family.
func TestToolSearchFindsThem(t *testing.T) {
	cat, err := tools.NewCatalog(All(failingOpener)...)
	if err != nil {
		t.Fatal(err)
	}
	for query, want := range map[string]string{
		"remember facts long-term memory": MemoryAppendName,
		"search memory notes":             MemorySearchName,
		"delete a memory note":            MemoryDeleteName,
		"save a variable":                 VarSetName,
		"read variable value":             VarGetName,
		"todo list plan progress":         TodoWriteName,
	} {
		found := false
		for _, s := range cat.Search(query, 5, nil) {
			found = found || s.Name == want
		}
		if !found {
			t.Errorf("search %q does not find %s", query, want)
		}
	}
}

// TestStoreUnavailable: a store that cannot be opened is a generic
// internal_error that names no path; bad arguments are still reported as
// such, before the store is needed.
func TestStoreUnavailable(t *testing.T) {
	cat, _ := tools.NewCatalog(All(failingOpener)...)
	x := &tools.Executor{Catalog: cat, Budget: tools.NewBudget(0, 1<<20)}
	env := &tools.Env{RunID: "r", SessionID: "ses_A"}
	for _, tc := range []struct{ name, args, code string }{
		{MemoryCurrentName, `{}`, tools.CodeInternalError},
		{MemoryAppendName, `{"items":["x"]}`, tools.CodeInternalError},
		{VarListName, `{}`, tools.CodeInternalError},
		{TodoWriteName, `{"todos":[]}`, tools.CodeInternalError},
		{VarSetName, `{"name":"a..b","value":1}`, tools.CodeInvalidArguments},
		{MemoryAppendName, `{"items":["  "]}`, tools.CodeInvalidArguments},
	} {
		out := x.Execute(context.Background(), env, providers.ToolCall{ID: "c", Name: tc.name, Arguments: tc.args})
		if out.OK || out.Err.Code != tc.code {
			t.Errorf("%s %s: %s", tc.name, tc.args, out.Envelope)
		}
		if strings.Contains(out.Envelope, "secret") {
			t.Errorf("%s: the cause leaked: %s", tc.name, out.Envelope)
		}
	}
	if st, err := Opener(nil).store(context.Background()); st != nil || tools.AsError(err).Code != tools.CodeInternalError {
		t.Errorf("nil opener: %v %v", st, err)
	}
}

// TestStoreOpenedLazily: building the tools opens nothing; each call asks
// the opener, which caches.
func TestStoreOpenedLazily(t *testing.T) {
	h := newHarness(t)
	if h.opens != 0 {
		t.Fatalf("%d opens before any call", h.opens)
	}
	h.fail(h.env, VarGetName, `{"name":""}`, tools.CodeInvalidArguments, "name")
	if h.opens != 0 {
		t.Fatalf("a call refused by its schema opened the store")
	}
	h.ok(MemoryCurrentName, `{}`)
	if h.opens != 1 {
		t.Fatalf("%d opens after one call", h.opens)
	}
}
