package store

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestMemory(t *testing.T) {
	s, _ := openTest(t)
	m, err := s.Memory(ctxb())
	if err != nil || m.Enabled || m.Items == nil || len(m.Items) != 0 {
		t.Fatalf("initial memory %+v %v", m, err)
	}
	m, err = s.AppendMemory(ctxb(), []string{"likes Go"})
	if err != nil || m.Enabled || !reflect.DeepEqual(m.Items, []string{"likes Go"}) {
		t.Fatalf("append %+v %v", m, err)
	}
	on, off := true, false
	m, err = s.SetMemory(ctxb(), MemoryUpdate{Enabled: &on, Items: &[]string{"a", " b "}})
	if err != nil || !m.Enabled || !reflect.DeepEqual(m.Items, []string{"a", "b"}) {
		t.Fatalf("set %+v %v", m, err)
	}
	m, err = s.AppendMemory(ctxb(), []string{"c"})
	if err != nil || !m.Enabled || !reflect.DeepEqual(m.Items, []string{"a", "b", "c"}) {
		t.Fatalf("append keeps enabled %+v %v", m, err)
	}
	got, _ := s.Memory(ctxb())
	if !reflect.DeepEqual(got, m) {
		t.Fatalf("Memory %+v, want %+v", got, m)
	}
	if m, err = s.SetMemory(ctxb(), MemoryUpdate{Enabled: &off}); err != nil || m.Enabled || len(m.Items) != 3 {
		t.Fatalf("toggle alone keeps the notes %+v %v", m, err)
	}
	if m, err = s.SetMemory(ctxb(), MemoryUpdate{Items: &[]string{}}); err != nil || m.Enabled || m.Items == nil || len(m.Items) != 0 {
		t.Fatalf("clear %+v %v", m, err)
	}
	got, _ = s.Memory(ctxb())
	if got.Enabled || len(got.Items) != 0 || got.Items == nil {
		t.Fatalf("after clear %+v", got)
	}
	_, err = s.AppendMemory(ctxb(), []string{"ok", " "})
	wantErr(t, err, ErrInvalid)
	_, err = s.SetMemory(ctxb(), MemoryUpdate{Items: &[]string{""}})
	wantErr(t, err, ErrInvalid)
	if m, err = s.SetMemory(ctxb(), MemoryUpdate{}); err != nil || !reflect.DeepEqual(m, got) {
		t.Fatalf("an empty update changed %+v %v", m, err)
	}
	b, _ := json.Marshal(got)
	if string(b) != `{"enabled":false,"memories":[]}` {
		t.Fatalf("memory JSON %s", b)
	}
}

func TestVariables(t *testing.T) {
	s, _ := openTest(t)
	mustSession(t, s, "ses_1")
	mustSession(t, s, "ses_2")
	must(t, s.SetVar(ctxb(), ScopeChat, "ses_1", "user.name", json.RawMessage(`"Ada"`)))
	must(t, s.SetVar(ctxb(), ScopeChat, "ses_2", "user.name", json.RawMessage(`"Bob"`)))
	must(t, s.SetVar(ctxb(), ScopeGlobal, "ignored", "count", json.RawMessage(`1`)))
	must(t, s.SetVar(ctxb(), ScopeGlobal, "", "count", json.RawMessage(`{"n": 2}`))) // overwrite
	v, err := s.GetVar(ctxb(), ScopeChat, "ses_1", "user.name")
	if err != nil || string(v) != `"Ada"` {
		t.Fatalf("chat var %s %v", v, err)
	}
	v, err = s.GetVar(ctxb(), ScopeGlobal, "", "count")
	if err != nil || string(v) != `{"n":2}` { // stored compact
		t.Fatalf("global var %s %v", v, err)
	}
	_, err = s.GetVar(ctxb(), ScopeChat, "ses_1", "count")
	wantErr(t, err, ErrNotFound)
	all, err := s.ListVars(ctxb(), ScopeChat, "ses_2", "")
	if err != nil || len(all) != 1 || all[0].Name != "user.name" || string(all[0].Value) != `"Bob"` {
		t.Fatalf("ListVars %v %v", all, err)
	}
	if all, _ := s.ListVars(ctxb(), ScopeChat, "ses_none", ""); all == nil || len(all) != 0 {
		t.Fatalf("ListVars of no session %v", all)
	}
	must(t, s.DeleteVar(ctxb(), ScopeChat, "ses_1", "user.name"))
	wantErr(t, s.DeleteVar(ctxb(), ScopeChat, "ses_1", "user.name"), ErrNotFound)
	wantErr(t, s.SetVar(ctxb(), ScopeChat, "ses_none", "x", json.RawMessage(`1`)), ErrNotFound)
	wantErr(t, s.SetVar(ctxb(), ScopeChat, "", "x", json.RawMessage(`1`)), ErrInvalid)
	wantErr(t, s.SetVar(ctxb(), "user", "", "x", json.RawMessage(`1`)), ErrInvalid)
	wantErr(t, s.SetVar(ctxb(), ScopeGlobal, "", "", json.RawMessage(`1`)), ErrInvalid)
	wantErr(t, s.SetVar(ctxb(), ScopeGlobal, "", "x", json.RawMessage(`nope`)), ErrInvalid)
	_, err = s.ListVars(ctxb(), "nope", "", "")
	wantErr(t, err, ErrInvalid)
}

func TestTodos(t *testing.T) {
	s, _ := openTest(t)
	mustSession(t, s, "ses_1")
	got, err := s.Todos(ctxb(), "ses_1")
	if err != nil || got == nil || len(got) != 0 {
		t.Fatalf("initial todos %v %v", got, err)
	}
	list := []Todo{{Content: "fetch", Status: "completed"}, {Content: "summarise", Status: "in_progress", ActiveForm: "Summarising"}, {Content: "send", Status: "pending"}}
	must(t, s.SetTodos(ctxb(), "ses_1", list))
	got, _ = s.Todos(ctxb(), "ses_1")
	if !reflect.DeepEqual(got, list) {
		t.Fatalf("todos %+v", got)
	}
	must(t, s.SetTodos(ctxb(), "ses_1", nil)) // replaces
	if got, _ = s.Todos(ctxb(), "ses_1"); len(got) != 0 {
		t.Fatalf("todos after replace %+v", got)
	}
	b, _ := json.Marshal(list[1])
	if string(b) != `{"content":"summarise","status":"in_progress","active_form":"Summarising"}` {
		t.Fatalf("todo JSON %s", b)
	}
	wantErr(t, s.SetTodos(ctxb(), "ses_1", []Todo{{Content: "x", Status: "done"}}), ErrInvalid)
	wantErr(t, s.SetTodos(ctxb(), "ses_1", []Todo{{Content: " ", Status: "pending"}}), ErrInvalid)
	wantErr(t, s.SetTodos(ctxb(), "ses_none", list), ErrNotFound)
	_, err = s.Todos(ctxb(), "ses_none")
	wantErr(t, err, ErrNotFound)
}

func FuzzDecodeCursor(f *testing.F) {
	f.Add("ses", encodeCursor("ses", 123, "ses_1"))
	f.Add("run", "")
	f.Add("aud", "YXVkOjE6")
	f.Fuzz(func(t *testing.T, kind, c string) {
		key, id, err := decodeCursor(kind, c)
		if err != nil {
			return
		}
		if c != "" && encodeCursor(kind, key, id) != c {
			// Only canonical encodings decode to the same position;
			// others must at least decode without panicking.
			k2, id2, err := decodeCursor(kind, encodeCursor(kind, key, id))
			if err != nil || k2 != key || id2 != id {
				t.Fatalf("round trip of %q: %d %q %v", c, k2, id2, err)
			}
		}
	})
}
