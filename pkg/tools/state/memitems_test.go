package state

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/tools"
)

func TestMemoryItemTools(t *testing.T) {
	h := newHarness(t)
	h.ok(MemoryAppendName, `{"items":["set up by seed 000"]}`)
	if got := h.ok(MemorySaveName, `{"content":"  Deploys happen on Tuesdays "}`); got != `{"id":"m2"}` {
		t.Fatalf("save = %s", got)
	}
	h.ok(MemorySaveName, `{"content":"The staging host is stg-1"}`)
	if got := h.ok(MemoryEditName, `{"id":"m2","content":"Deploys happen on Thursdays"}`); got != `{"id":"m2"}` {
		t.Fatalf("edit = %s", got)
	}
	// Seed 000's tools see the same notes as a list of strings, in order.
	if got := h.ok(MemoryCurrentName, `{}`); got != `{"enabled":false,"memories":["set up by seed 000","Deploys happen on Thursdays","The staging host is stg-1"]}` {
		t.Fatalf("current = %s", got)
	}
	var list struct {
		Items []struct{ ID, Content string }
		Next  string `json:"next_cursor"`
	}
	if err := json.Unmarshal([]byte(h.ok(MemoryListName, `{"limit":2}`)), &list); err != nil || len(list.Items) != 2 || list.Items[1].ID != "m2" || list.Next == "" {
		t.Fatalf("list page 1: %+v %v", list, err)
	}
	page2 := h.ok(MemoryListName, `{"cursor":"`+list.Next+`"}`)
	if !strings.Contains(page2, `"id":"m3","content":"The staging host is stg-1"`) || strings.Contains(page2, "next_cursor") {
		t.Fatalf("list page 2: %s", page2)
	}
	res := h.ok(MemorySearchName, `{"query":"thursday deploys"}`)
	if !strings.HasPrefix(res, `{"results":[{"id":"m2","content":"Deploys happen on Thursdays"`) || !strings.Contains(res, `"score":`) {
		t.Fatalf("search = %s", res)
	}
	if got := h.ok(MemorySearchName, `{"query":"kubernetes"}`); got != `{"results":[]}` {
		t.Fatalf("no hit = %s", got)
	}
	if got := h.ok(MemoryDeleteName, `{"id":"m2"}`); got != `{"id":"m2","deleted":true}` {
		t.Fatalf("delete = %s", got)
	}
	e := h.fail(h.env, MemoryDeleteName, `{"id":"m2"}`, tools.CodeResourceNotFound, "-")
	if !strings.Contains(e.Error.Message, "m2") {
		t.Fatalf("not found: %+v", e.Error)
	}
	h.fail(h.env, MemoryEditName, `{"id":"m9","content":"x"}`, tools.CodeResourceNotFound, "-")
}

func TestMemoryItemToolsHostile(t *testing.T) {
	h := newHarness(t)
	long := strings.Repeat("x", 2001)
	for _, tc := range []struct{ tool, args, path string }{
		{MemorySaveName, `{}`, "content"},
		{MemorySaveName, `{"content":"  "}`, "content"},
		{MemorySaveName, `{"content":"` + long + `"}`, "content"},
		{MemorySaveName, `{"content":"a","id":"m1"}`, "id"},
		{MemoryEditName, `{"id":"x1","content":"a"}`, "id"},
		{MemoryEditName, `{"id":"m1","content":""}`, "content"},
		{MemoryDeleteName, `{"id":"m0"}`, "id"},
		{MemoryDeleteName, `{}`, "id"},
		{MemoryListName, `{"limit":0}`, "limit"},
		{MemoryListName, `{"limit":201}`, "limit"},
		{MemoryListName, `{"cursor":"bogus"}`, "cursor"},
		{MemorySearchName, `{"query":""}`, "query"},
		{MemorySearchName, `{"query":"?! ()"}`, "query"},
		{MemorySearchName, `{"query":"a","limit":-1}`, "limit"},
	} {
		h.fail(h.env, tc.tool, tc.args, tools.CodeInvalidArguments, tc.path)
	}
}

func TestMemorySaveLimit(t *testing.T) {
	h := newHarness(t)
	items := make([]string, 200)
	for i := range items {
		items[i] = `"n"`
	}
	h.ok(MemoryUpdateName, `{"memories":[`+strings.Join(items, ",")+`]}`)
	e := h.fail(h.env, MemorySaveName, `{"content":"one more"}`, tools.CodeLimitExceeded, "content")
	if e.Error.Details["unit"] != "items" {
		t.Fatalf("limit: %+v", e.Error)
	}
}
