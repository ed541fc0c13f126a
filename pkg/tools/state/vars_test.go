package state

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/tools"
)

func TestVarLifecycle(t *testing.T) {
	h := newHarness(t)
	if got := h.ok(VarSetName, `{"name":"user.prefs.theme","value":"dark"}`); got != `{"name":"user.prefs.theme","scope":"chat","bytes":6}` {
		t.Fatalf("set = %s", got)
	}
	if got := h.ok(VarGetName, `{"name":"user.prefs.theme"}`); got != `{"name":"user.prefs.theme","scope":"chat","value":"dark","bytes":6}` {
		t.Fatalf("get = %s", got)
	}
	// Any JSON value, stored compact, numbers as written.
	for _, v := range []string{`{"a": [1, 2.50, null], "b": {"c": true}}`, `null`, `false`, `12345678901234567890`, `[]`, `"é\u0000"`} {
		h.ok(VarSetName, `{"name":"v","value":`+v+`,"scope":"global"}`)
		var want bytes.Buffer
		json.Compact(&want, []byte(v))
		got := h.ok(VarGetName, `{"name":"v","scope":"global"}`)
		if !strings.Contains(got, `"value":`+want.String()+`,`) {
			t.Errorf("value %s came back as %s", v, got)
		}
	}
	// Set replaces.
	h.ok(VarSetName, `{"name":"user.prefs.theme","value":{"mode":"light"}}`)
	if got := h.ok(VarGetName, `{"name":"user.prefs.theme","scope":"chat"}`); !strings.Contains(got, `"value":{"mode":"light"}`) {
		t.Fatalf("after replace = %s", got)
	}
	h.ok(VarSetName, `{"name":"user.name","value":"Ada"}`)
	h.ok(VarSetName, `{"name":"zeta","value":1}`)
	if got := h.ok(VarListName, `{}`); got != `{"scope":"chat","variables":[{"name":"user.name","bytes":5,"value":"Ada"},{"name":"user.prefs.theme","bytes":16,"value":{"mode":"light"}},{"name":"zeta","bytes":1,"value":1}]}` {
		t.Fatalf("list = %s", got)
	}
	if got := h.ok(VarListName, `{"prefix":"user."}`); strings.Contains(got, "zeta") || !strings.Contains(got, "user.name") {
		t.Fatalf("prefix list = %s", got)
	}
	if got := h.ok(VarDeleteName, `{"name":"zeta"}`); got != `{"deleted":true,"name":"zeta","scope":"chat"}` {
		t.Fatalf("delete = %s", got)
	}
	e := h.fail(h.env, VarGetName, `{"name":"zeta"}`, tools.CodeResourceNotFound, "-")
	if e.Error.Message != `no chat variable "zeta" is set; tavo_var_list shows the names that are` {
		t.Fatalf("not found message = %q", e.Error.Message)
	}
	h.fail(h.env, VarDeleteName, `{"name":"zeta"}`, tools.CodeResourceNotFound, "-")
}

func TestVarScopes(t *testing.T) {
	h := newHarness(t)
	h.ok(VarSetName, `{"name":"k","value":"chat A"}`)
	h.ok(VarSetName, `{"name":"k","value":"global","scope":"global"}`)
	other := h.envFor("ses_B")
	h.fail(other, VarGetName, `{"name":"k"}`, tools.CodeResourceNotFound, "-")
	if e := h.call(other, VarGetName, `{"name":"k","scope":"global"}`); !e.OK || !strings.Contains(string(e.Result), `"value":"global"`) {
		t.Fatalf("global from B = %+v", e)
	}
	if got := h.ok(VarGetName, `{"name":"k"}`); !strings.Contains(got, `"value":"chat A"`) {
		t.Fatalf("chat from A = %s", got)
	}
	if e := h.call(other, VarListName, `{}`); string(e.Result) != `{"scope":"chat","variables":[]}` {
		t.Fatalf("B's chat list = %s", e.Result)
	}
	// Without a session only global works.
	none := h.envFor("")
	e := h.fail(none, VarSetName, `{"name":"k","value":1}`, tools.CodeInvalidArguments, "scope")
	if !strings.Contains(e.Error.Message, `use scope "global"`) {
		t.Fatalf("no-session message = %q", e.Error.Message)
	}
	h.fail(none, VarListName, `{"scope":"chat"}`, tools.CodeInvalidArguments, "scope")
	if e := h.call(none, VarListName, `{"scope":"global"}`); !e.OK {
		t.Fatalf("global list without a session: %+v", e.Error)
	}
	// A session that is gone, or an id the store refuses.
	h.fail(h.envFor("ses_gone"), VarSetName, `{"name":"k","value":1}`, tools.CodeResourceNotFound, "-")
	h.fail(h.envFor("../x"), VarSetName, `{"name":"k","value":1}`, tools.CodeInvalidArguments, "-")
}

func TestVarNames(t *testing.T) {
	h := newHarness(t)
	for _, tc := range []struct{ tool, args string }{
		{VarSetName, `{"name":"a..b","value":1}`},
		{VarSetName, `{"name":"../../etc/passwd","value":1}`},
		{VarSetName, `{"name":" spaced ","value":1}`},
		{VarGetName, `{"name":"user."}`},
		{VarDeleteName, `{"name":"a b"}`},
		{VarGetName, `{"name":""}`},
		{VarGetName, `{"name":5}`},
		{VarGetName, `{}`},
		{VarSetName, `{"name":"` + strings.Repeat("n", store.MaxVarNameLen+1) + `","value":1}`},
	} {
		e := h.fail(h.env, tc.tool, tc.args, tools.CodeInvalidArguments, "name")
		if e.Error.Details["expected"] == "" || e.Error.Details["actualType"] == "" {
			t.Errorf("%s: details %v", tc.args, e.Error.Details)
		}
	}
	if got := h.ok(VarListName, `{"scope":"global"}`); got != `{"scope":"global","variables":[]}` {
		t.Fatalf("hostile names stored something: %s", got)
	}
}

func TestVarHostileArguments(t *testing.T) {
	h := newHarness(t)
	for _, tc := range []struct{ tool, args, path string }{
		{VarSetName, `{"name":"a"}`, "value"},
		{VarSetName, `{"name":"a","value":1,"scope":"session"}`, "scope"},
		{VarSetName, `{"name":"a","value":1,"ttl":60}`, "ttl"},
		{VarGetName, `{"name":"a","value":1}`, "value"},
		{VarListName, `{"scope":"GLOBAL"}`, "scope"},
		{VarListName, `{"prefix":""}`, "prefix"},
		{VarListName, `{"name":"a"}`, "name"},
		{VarDeleteName, `{"name":"a","prefix":"a"}`, "prefix"},
	} {
		h.fail(h.env, tc.tool, tc.args, tools.CodeInvalidArguments, tc.path)
	}
	h.fail(h.env, VarSetName, `{"name":"a","value":`, tools.CodeInvalidArguments, "")
	h.fail(h.env, VarSetName, `["name","value"]`, tools.CodeInvalidArguments, "")
}

func TestVarLargeValues(t *testing.T) {
	h := newHarness(t)
	// Small values carry no warning.
	if got := h.ok(VarSetName, `{"name":"small","value":"`+strings.Repeat("a", store.WarnBlobBytes-10)+`"}`); strings.Contains(got, "warning") {
		t.Fatalf("small value warned: %.200s", got)
	}
	// A long prose string is fine; a long base64 string or data URL warns,
	// even nested.
	prose := strings.Repeat("the quick brown fox. ", 600)
	if got := h.ok(VarSetName, `{"name":"prose","value":{"text":"`+prose+`"}}`); strings.Contains(got, "warning") {
		t.Fatalf("prose warned: %.200s", got)
	}
	b64 := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("\x89PNG\x00\xff", 2000)))
	got := h.ok(VarSetName, `{"name":"img","value":{"images":["`+b64+`"]}}`)
	var r SetResult
	json.Unmarshal([]byte(got), &r)
	if !strings.Contains(r.Warning, "base64") || !strings.Contains(r.Warning, "tavo_file_save") || r.Bytes < len(b64) {
		t.Fatalf("base64 result = %.300s", got)
	}
	got = h.ok(VarSetName, `{"name":"url","value":"data:image/png;base64,`+b64+`"}`)
	if !strings.Contains(got, `"warning":"The value was saved, but it holds a data URL`) {
		t.Fatalf("data URL result = %.300s", got)
	}
	// The value is saved all the same.
	if g := h.ok(VarGetName, `{"name":"url"}`); !strings.Contains(g, b64[:100]) {
		t.Fatal("warned value not saved")
	}
	// Over 64 KiB warns whatever it is; over 1 MiB is refused.
	big := strings.Repeat("word ", (store.WarnValueBytes/5)+10)
	if got := h.ok(VarSetName, `{"name":"big","value":"`+big+`"}`); !strings.Contains(got, "reading it back returns at most 64 KiB") {
		t.Fatalf("big result = %.300s", got)
	}
	huge := strings.Repeat("x", store.MaxValueBytes)
	e := h.fail(h.env, VarSetName, `{"name":"huge","value":"`+huge+`"}`, tools.CodeLimitExceeded, "value")
	if e.Error.Details["limitBytes"] != float64(store.MaxValueBytes) || e.Error.Details["actualBytes"] != float64(store.MaxValueBytes+2) {
		t.Fatalf("huge error = %+v", e.Error.Details)
	}
	h.fail(h.env, VarGetName, `{"name":"huge"}`, tools.CodeResourceNotFound, "-")
	// Reading a big value back is cut by the result budget, marked truncated.
	out := h.x.Execute(context.Background(), h.env, providers.ToolCall{ID: "c", Name: VarGetName, Arguments: `{"name":"big"}`})
	if !out.OK || !out.Truncated || out.Bytes > tools.MaxResultBytes {
		t.Fatalf("big get: ok %v truncated %v bytes %d", out.OK, out.Truncated, out.Bytes)
	}
	// The listing leaves big values out.
	list := h.ok(VarListName, `{}`)
	if !strings.Contains(list, `{"name":"big","bytes":`) || !strings.Contains(list, `"omitted":true`) || strings.Contains(list, "word word") {
		t.Fatalf("list = %.300s", list)
	}
}
