package askuser

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// askerFunc adapts a function to tools.Asker.
type askerFunc func(ctx context.Context, q tools.Question) (tools.Answer, error)

func (f askerFunc) Ask(ctx context.Context, q tools.Question) (tools.Answer, error) { return f(ctx, q) }

// recorder collects emitted events.
type recorder struct {
	mu     sync.Mutex
	types  []string
	events []any
}

func (r *recorder) emit(t string, p any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.types = append(r.types, t)
	r.events = append(r.events, p)
}

func executor(t testing.TB) *tools.Executor {
	t.Helper()
	c, err := tools.NewCatalog(New())
	if err != nil {
		t.Fatal(err)
	}
	return &tools.Executor{Catalog: c}
}

func ask(t *testing.T, env *tools.Env, args string) tools.Outcome {
	t.Helper()
	return executor(t).Execute(context.Background(), env, providers.ToolCall{ID: "call_7", Name: Name, Arguments: args})
}

func TestRejections(t *testing.T) {
	tests := []struct {
		name, args, path, expected, actual string
	}{
		{"no question", `{}`, "question", "string", "missing"},
		{"blank question", `{"question":"  \n"}`, "question", "non-empty string", "string"},
		{"question type", `{"question":7}`, "question", "string", "integer"},
		{"empty string option", `{"question":"q","options":["a",""]}`, "options[1]", "non-empty string", "string"},
		{"blank string option", `{"question":"q","options":["  "]}`, "options[0]", "non-empty string", "string"},
		{"option of wrong type", `{"question":"q","options":[5]}`, "options[0]", "string or object", "integer"},
		{"missing label", `{"question":"q","options":[{"value":"a"}]}`, "options[0].label", "string", "missing"},
		{"missing value", `{"question":"q","options":["x",{"label":"a"}]}`, "options[1].value", "string", "missing"},
		{"empty label", `{"question":"q","options":["x",{"value":"a","label":""}]}`, "options[1].label", "non-empty string", "string"},
		{"blank label", `{"question":"q","options":[{"value":"a","label":"  "}]}`, "options[0].label", "non-empty string", "string"},
		{"blank value", `{"question":"q","options":[{"value":" ","label":"A"}]}`, "options[0].value", "non-empty string", "string"},
		{"label type", `{"question":"q","options":[{"value":"a","label":1}]}`, "options[0].label", "string", "integer"},
		{"meta type", `{"question":"q","options":[{"value":"a","label":"A","meta":{}}]}`, "options[0].meta", "string", "object"},
		{"unknown option field", `{"question":"q","options":[{"value":"a","label":"A","color":"red"}]}`, "options[0].color", "no additional properties", "string"},
		{"unknown field", `{"question":"q","multiple":true}`, "multiple", "no additional properties", "boolean"},
		{"options not array", `{"question":"q","options":"a,b"}`, "options", "array", "string"},
		{"allowOther type", `{"question":"q","allowOther":"no"}`, "allowOther", "boolean", "string"},
		{"duplicate object value", `{"question":"q","options":["a","b",{"value":" A ","label":"x"}]}`, "options[2].value", "a value no other option has", "string"},
		{"duplicate string", `{"question":"q","options":["Yes","yes"]}`, "options[1]", "a value no other option has", "string"},
		{"strict without options", `{"question":"q","allowOther":false}`, "options", "non-empty array when allowOther is false", "missing"},
		{"strict with empty options", `{"question":"q","allowOther":false,"options":[]}`, "options", "non-empty array when allowOther is false", "array"},
		{"default not an option", `{"question":"q","options":["a","b"],"defaultValue":"c"}`, "defaultValue", "one of a|b", "string"},
		{"default is a label only", `{"question":"q","options":[{"value":"a","label":"Alpha"}],"defaultValue":"Alpha"}`, "defaultValue", "one of a", "string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			asked := false
			env := &tools.Env{Asker: askerFunc(func(context.Context, tools.Question) (tools.Answer, error) {
				asked = true
				return tools.Answer{Status: tools.StatusCancelled}, nil
			})}
			out := ask(t, env, tt.args)
			if asked || out.OK {
				t.Fatalf("accepted: %s", out.Envelope)
			}
			got := [4]any{out.Err.Code, out.Err.Details["path"], out.Err.Details["expected"], out.Err.Details["actualType"]}
			want := [4]any{tools.CodeInvalidArguments, tt.path, tt.expected, tt.actual}
			if got != want {
				t.Fatalf("got %q, want %q (%s)", got, want, out.Err.Message)
			}
			if !strings.Contains(out.Err.Message, tt.path) {
				t.Fatalf("message %q does not name %q", out.Err.Message, tt.path)
			}
		})
	}
}

func TestAnswerFlow(t *testing.T) {
	var got tools.Question
	rec := &recorder{}
	env := &tools.Env{Emit: rec.emit, Asker: askerFunc(func(_ context.Context, q tools.Question) (tools.Answer, error) {
		got = q
		return tools.Answer{Status: tools.StatusAnswered, Answer: "All chats", Source: tools.AnswerSourceCustom, Via: "terminal"}, nil
	})}
	out := ask(t, env, `{"question":" Which scope? ","options":["chat",{"value":"global","label":"All chats","description":"shared","meta":"wide"}],"allowOther":false,"defaultValue":"CHAT","placeholder":"scope"}`)
	if want := `{"ok":true,"result":{"status":"answered","answer":"global","source":"option"}}`; out.Envelope != want {
		t.Fatalf("envelope\n got %s\nwant %s", out.Envelope, want)
	}
	wantQ := tools.Question{
		CallID: "call_7", Question: "Which scope?", AllowOther: false, DefaultValue: "chat", Placeholder: "scope",
		Options: []tools.Option{{Value: "chat", Label: "chat"}, {Value: "global", Label: "All chats", Description: "shared", Meta: "wide"}},
	}
	if !reflect.DeepEqual(got, wantQ) {
		t.Fatalf("asked %+v\nwant  %+v", got, wantQ)
	}
	if !reflect.DeepEqual(rec.types, []string{EventQuestion, EventAnswer}) {
		t.Fatalf("events %v", rec.types)
	}
	if !reflect.DeepEqual(rec.events[0], wantQ) {
		t.Fatalf("question event %+v", rec.events[0])
	}
	wantA := tools.AskAnswerEvent{CallID: "call_7", Status: "answered", Answer: "global", Source: "option", Via: "terminal"}
	if !reflect.DeepEqual(rec.events[1], wantA) {
		t.Fatalf("answer event %+v", rec.events[1])
	}
	b, _ := json.Marshal(rec.events[0])
	if string(b) != `{"call_id":"call_7","question":"Which scope?","options":[{"value":"chat","label":"chat"},{"value":"global","label":"All chats","description":"shared","meta":"wide"}],"allow_other":false,"default_value":"chat","placeholder":"scope"}` {
		t.Fatalf("question payload %s", b)
	}
}

func TestAnswers(t *testing.T) {
	tests := []struct {
		name, args string
		answer     tools.Answer
		want       string
	}{
		{"custom", `{"question":"Name?"}`, tools.Answer{Status: "answered", Answer: "  Ada  ", Source: "custom"},
			`{"status":"answered","answer":"Ada","source":"custom"}`},
		{"empty custom takes default", `{"question":"Scope?","options":["chat","global"],"defaultValue":"global"}`,
			tools.Answer{Status: "answered", Answer: " ", Source: "custom"}, `{"status":"answered","answer":"global","source":"option"}`},
		{"empty without default", `{"question":"Name?"}`, tools.Answer{Status: "answered", Answer: ""}, `{"status":"cancelled"}`},
		{"custom in strict mode", `{"question":"Scope?","options":["chat"],"allowOther":false}`,
			tools.Answer{Status: "answered", Answer: "room", Source: "custom"}, `{"status":"cancelled"}`},
		{"cancelled", `{"question":"Name?"}`, tools.Answer{Status: "cancelled"}, `{"status":"cancelled"}`},
	}
	for _, tt := range tests {
		env := &tools.Env{Asker: askerFunc(func(context.Context, tools.Question) (tools.Answer, error) { return tt.answer, nil })}
		out := ask(t, env, tt.args)
		if out.Envelope != `{"ok":true,"result":`+tt.want+`}` {
			t.Errorf("%s: %s", tt.name, out.Envelope)
		}
	}
}

func TestNoAsker(t *testing.T) {
	rec := &recorder{}
	out := ask(t, &tools.Env{Emit: rec.emit}, `{"question":"Proceed?"}`)
	if out.Envelope != `{"ok":true,"result":{"status":"cancelled"}}` {
		t.Fatalf("envelope %s", out.Envelope)
	}
	if len(rec.events) != 2 || !reflect.DeepEqual(rec.events[1], tools.AskAnswerEvent{CallID: "call_7", Status: "cancelled", Via: "none"}) {
		t.Fatalf("events %+v", rec.events)
	}
}

func TestInputRequired(t *testing.T) {
	rec := &recorder{}
	env := &tools.Env{Emit: rec.emit, Asker: askerFunc(func(context.Context, tools.Question) (tools.Answer, error) {
		return tools.Answer{}, tools.ErrInputRequired
	})}
	out := ask(t, env, `{"question":"Proceed?"}`)
	if !out.InputRequired || out.OK {
		t.Fatalf("got %+v", out)
	}
	if !reflect.DeepEqual(rec.types, []string{EventQuestion}) {
		t.Fatalf("events %v", rec.types)
	}
	_, err := New().Run(context.Background(), &tools.Call{ID: "c", Args: json.RawMessage(`{"question":"q"}`), Env: env})
	if !errors.Is(err, tools.ErrInputRequired) {
		t.Fatalf("Run returned %v", err)
	}
}

func TestAskerError(t *testing.T) {
	env := &tools.Env{Asker: askerFunc(func(context.Context, tools.Question) (tools.Answer, error) {
		return tools.Answer{}, errors.New("read /dev/tty: input/output error")
	})}
	out := ask(t, env, `{"question":"q"}`)
	if out.Err == nil || out.Err.Code != tools.CodeInternalError || strings.Contains(out.Envelope, "tty") {
		t.Fatalf("got %s", out.Envelope)
	}
}

// TestWaitDoesNotCountAgainstTimeout: the person answers after the call's
// timeout has long passed in wall time, yet the call succeeds.
func TestWaitDoesNotCountAgainstTimeout(t *testing.T) {
	x := executor(t)
	x.Timeout = 100 * time.Millisecond
	env := &tools.Env{Asker: askerFunc(func(ctx context.Context, q tools.Question) (tools.Answer, error) {
		select {
		case <-time.After(300 * time.Millisecond):
		case <-ctx.Done():
			return tools.Answer{}, ctx.Err()
		}
		return tools.Answer{Status: "answered", Answer: "yes"}, nil
	})}
	out := x.Execute(context.Background(), env, providers.ToolCall{ID: "c", Name: Name, Arguments: `{"question":"Proceed?"}`})
	if !out.OK {
		t.Fatalf("got %s", out.Envelope)
	}
}

func TestSpec(t *testing.T) {
	s := New().Spec()
	if s.Name != Name || s.ID != Name || !s.Resident || s.Source != tools.SourceBuiltin || s.NeedsConfirm {
		t.Fatalf("spec %+v", s)
	}
}

func FuzzAskUserArgs(f *testing.F) {
	for _, s := range []string{`{"question":"q"}`, `{"question":"q","options":["a",{"value":"b","label":"B"}],"defaultValue":"b"}`,
		`{"question":"q","allowOther":false}`, `{"question":" ","options":[" a","A "]}`, `{}`, `[]`} {
		f.Add(s)
	}
	x := executor(f)
	f.Fuzz(func(t *testing.T, args string) {
		env := &tools.Env{Asker: askerFunc(func(_ context.Context, q tools.Question) (tools.Answer, error) {
			if strings.TrimSpace(q.Question) == "" || !q.AllowOther && len(q.Options) == 0 {
				t.Errorf("asked an invalid question %+v", q)
			}
			seen := map[string]bool{}
			for _, o := range q.Options {
				k := strings.ToLower(o.Value)
				if o.Value == "" || o.Label == "" || seen[k] {
					t.Errorf("bad options %+v", q.Options)
				}
				seen[k] = true
			}
			return tools.Answer{Status: "answered", Answer: "x"}, nil
		})}
		out := x.Execute(context.Background(), env, providers.ToolCall{ID: "c", Name: Name, Arguments: args})
		if !out.OK && out.Err.Code != tools.CodeInvalidArguments {
			t.Fatalf("unexpected %s", out.Envelope)
		}
	})
}

func TestCheckTool(t *testing.T) {
	if err := tools.CheckTool(New()); err != nil {
		t.Fatal(err)
	}
}
