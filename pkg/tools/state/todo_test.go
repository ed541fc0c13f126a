package state

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/tools"
)

func TestTodoWrite(t *testing.T) {
	h := newHarness(t)
	got := h.ok(TodoWriteName, `{"todos":[
		{"content":"Fetch the page","status":"completed"},
		{"content":" Summarise it ","status":"in_progress","active_form":"Summarising it"},
		{"content":"Write notes.md","status":"pending","active_form":"  "}]}`)
	want := `{"todos":[{"content":"Fetch the page","status":"completed"},` +
		`{"content":"Summarise it","status":"in_progress","active_form":"Summarising it"},` +
		`{"content":"Write notes.md","status":"pending"}],"counts":{"pending":1,"in_progress":1,"completed":1}}`
	if got != want {
		t.Fatalf("result = %s", got)
	}
	stored, err := h.st.Todos(context.Background(), "ses_A")
	if err != nil || len(stored) != 3 || stored[1].Content != "Summarise it" || stored[1].ActiveForm != "Summarising it" {
		t.Fatalf("stored = %+v %v", stored, err)
	}
	// The event carries the same list and validates against the schema.
	if len(h.events) != 1 || h.events[0].typ != "todo.updated" {
		t.Fatalf("events = %+v", h.events)
	}
	p, ok := h.events[0].payload.(events.TodoUpdatedP)
	if !ok || len(p.Todos) != 3 || p.Todos[2].Status != events.TodoPending || p.Todos[1].ActiveForm != "Summarising it" {
		t.Fatalf("payload = %#v", h.events[0].payload)
	}
	line, err := json.Marshal(map[string]any{"v": 1, "seq": 1, "time": "2026-01-01T00:00:00.000Z", "run_id": "run_1",
		"session_id": "ses_A", "type": "todo.updated", "payload": p})
	if err != nil {
		t.Fatal(err)
	}
	if err := events.Validate(line); err != nil {
		t.Fatalf("event does not validate: %v\n%s", err, line)
	}
	// Each write replaces the list; [] clears it and is announced too.
	if got := h.ok(TodoWriteName, `{"todos":[]}`); got != `{"todos":[],"counts":{"pending":0,"in_progress":0,"completed":0}}` {
		t.Fatalf("clear = %s", got)
	}
	if stored, _ := h.st.Todos(context.Background(), "ses_A"); len(stored) != 0 {
		t.Fatalf("after clear: %+v", stored)
	}
	if len(h.events) != 2 {
		t.Fatalf("%d events", len(h.events))
	}
	if b, _ := json.Marshal(h.events[1].payload); string(b) != `{"todos":[]}` {
		t.Fatalf("clear payload = %s", b)
	}
	// Lists are per session.
	h.call(h.envFor("ses_B"), TodoWriteName, `{"todos":[{"content":"B's","status":"pending"}]}`)
	if a, _ := h.st.Todos(context.Background(), "ses_A"); len(a) != 0 {
		t.Fatalf("B's write reached A: %+v", a)
	}
}

func TestTodoHostileArguments(t *testing.T) {
	h := newHarness(t)
	h.ok(TodoWriteName, `{"todos":[{"content":"keep","status":"pending"}]}`)
	h.events = nil
	for _, tc := range []struct{ args, path string }{
		{`{}`, "todos"},
		{`{"todos":null}`, "todos"},
		{`{"todos":"write tests"}`, "todos"},
		{`{"todos":[{"content":"x"}]}`, "todos[0].status"},
		{`{"todos":[{"content":"x","status":"done"}]}`, "todos[0].status"},
		{`{"todos":[{"content":"","status":"pending"}]}`, "todos[0].content"},
		{`{"todos":[{"content":"ok","status":"pending"},{"content":"   ","status":"pending"}]}`, "todos[1].content"},
		{`{"todos":[{"content":"x","status":"pending","priority":"high"}]}`, "todos[0].priority"},
		{`{"todos":[{"content":"x","status":"pending"}],"merge":true}`, "merge"},
		{`{"todos":[{"content":"a","status":"in_progress"},{"content":"b","status":"completed"},{"content":"c","status":"in_progress"}]}`, "todos[2].status"},
		{`{"todos":[{"content":"` + strings.Repeat("x", MaxTodoChars+1) + `","status":"pending"}]}`, "todos[0].content"},
		{`{"todos":[` + strings.Repeat(`{"content":"x","status":"pending"},`, MaxTodos) + `{"content":"x","status":"pending"}]}`, "todos"},
	} {
		h.fail(h.env, TodoWriteName, tc.args, tools.CodeInvalidArguments, tc.path)
	}
	e := h.fail(h.env, TodoWriteName, `{"todos":[{"content":"a","status":"in_progress"},{"content":"b","status":"in_progress"}]}`, tools.CodeInvalidArguments, "todos[1].status")
	if !strings.Contains(e.Error.Message, "todos[0] already is") {
		t.Fatalf("message = %q", e.Error.Message)
	}
	if len(h.events) != 0 {
		t.Fatalf("refused writes emitted %+v", h.events)
	}
	if stored, _ := h.st.Todos(context.Background(), "ses_A"); len(stored) != 1 || stored[0].Content != "keep" {
		t.Fatalf("refused writes changed the list: %+v", stored)
	}
	// No session, or a session that is gone.
	h.fail(h.envFor(""), TodoWriteName, `{"todos":[]}`, tools.CodeResourceNotFound, "-")
	h.fail(h.envFor("ses_gone"), TodoWriteName, `{"todos":[]}`, tools.CodeResourceNotFound, "-")
	if len(h.events) != 0 {
		t.Fatalf("failed writes emitted %+v", h.events)
	}
}
