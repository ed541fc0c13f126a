package events

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestSchemaCopyMatchesDocs(t *testing.T) {
	docs, err := os.ReadFile("../../docs/events.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(docs, Schema()) {
		t.Fatal("pkg/events/events.schema.json differs from docs/events.schema.json; copy docs/events.schema.json over it")
	}
}

func TestSchemaReturnsCopy(t *testing.T) {
	s := Schema()
	s[0] = 'X'
	if Schema()[0] == 'X' {
		t.Fatal("Schema returned the embedded bytes; a caller could change them")
	}
}

func TestSchemaTypeEnumMatchesAllTypes(t *testing.T) {
	var doc struct {
		Properties struct {
			Type struct {
				Enum []Type `json:"enum"`
			} `json:"type"`
		} `json:"properties"`
		Defs map[string]json.RawMessage `json:"$defs"`
	}
	if err := json.Unmarshal(Schema(), &doc); err != nil {
		t.Fatal(err)
	}
	got, want := doc.Properties.Type.Enum, AllTypes()
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("schema type enum %v, Go types %v", got, want)
	}
	for _, ty := range want {
		if _, ok := doc.Defs[string(ty)]; !ok {
			t.Errorf("schema has no payload definition for %s", ty)
		}
	}
}

func TestEveryPayloadValidates(t *testing.T) {
	rec := &recorder{}
	em := NewEmitter("run_01JDX8Q", "ses_01JDX8", fixedClock(), rec)
	seen := map[Type]bool{}
	for _, s := range samples() {
		em.Emit(s.T, s.P)
		seen[s.T] = true
	}
	for _, ty := range AllTypes() {
		if !seen[ty] {
			t.Errorf("no sample emits %s", ty)
		}
	}
	for _, line := range rec.lines {
		if err := Validate(line); err != nil {
			t.Errorf("%s\n%v", line, err)
		}
	}
}

func TestZeroValuePayloadsKeepListsAndRequiredFields(t *testing.T) {
	// What a runner emits with little to say must still be valid: lists as
	// [] (never null) and every required field present.
	rec := &recorder{}
	em := NewEmitter("run_z", "ses_z", fixedClock(), rec)
	em.Emit(RunStarted, RunStartedP{SessionID: "ses_z", ReasoningContext: "off"})
	em.Emit(MessageT, MessageP{Round: 1, FinishReason: "stop"})
	em.Emit(ToolsVisible, ToolsVisibleP{})
	em.Emit(TodoUpdated, &TodoUpdatedP{})
	em.Emit(RunCompleted, RunCompletedP{Status: StatusMaxRounds, ExitCode: ExitCodeFor(StatusMaxRounds)})
	wake := time.Date(2026, 11, 29, 16, 0, 0, 0, time.UTC)
	em.Emit(RunCompleted, RunCompletedP{Status: StatusWaiting, ExitCode: ExitCodeFor(StatusWaiting), WakeAt: &wake})
	em.Emit(RunCompleted, RunCompletedP{Status: StatusGoalExhausted, ExitCode: ExitCodeFor(StatusGoalExhausted)})
	for _, line := range rec.lines {
		if strings.Contains(string(line), "null") {
			t.Errorf("line has a null: %s", line)
		}
		if err := Validate(line); err != nil {
			t.Errorf("%s\n%v", line, err)
		}
	}
}

// validLine is a well-formed event to break in the negative cases.
const validLine = `{"v":1,"seq":9,"time":"2026-11-29T15:00:01.250Z","run_id":"run_1","session_id":"ses_1","type":"run.completed","payload":{"status":"completed","exit_code":0,"text":"done","rounds":1,"tool_calls":{"total":0,"failed":0,"denied":0},"usage":{"input_tokens":10,"output_tokens":2,"cached_tokens":0,"reasoning_tokens":0},"duration_ms":40}}`

func TestValidateAcceptsBaseAndUnknownFields(t *testing.T) {
	if err := Validate([]byte(validLine + "\n")); err != nil {
		t.Fatalf("base line invalid: %v", err)
	}
	extra := strings.Replace(validLine, `"text":"done"`, `"text":"done","new_field":[1,2]`, 1)
	extra = strings.Replace(extra, `{"v":1,`, `{"v":1,"host":"ci-7",`, 1)
	if err := Validate([]byte(extra)); err != nil {
		t.Fatalf("unknown fields must be allowed: %v", err)
	}
}

func TestValidateRejects(t *testing.T) {
	cases := []struct {
		name, from, to, want string
	}{
		{"seq zero", `"seq":9`, `"seq":0`, "/seq"},
		{"seq as string", `"seq":9`, `"seq":"9"`, "/seq"},
		{"version 2", `"v":1`, `"v":2`, "/v"},
		{"time without millis", `15:00:01.250Z`, `15:00:01Z`, "/time"},
		{"time with offset", `15:00:01.250Z`, `16:00:01.250+01:00`, "/time"},
		{"run id prefix", `"run_id":"run_1"`, `"run_id":"1"`, "/run_id"},
		{"session id prefix", `"session_id":"ses_1"`, `"session_id":"s1"`, "/session_id"},
		{"unknown type", `"type":"run.completed"`, `"type":"run.finished"`, "/type"},
		{"missing envelope field", `"run_id":"run_1",`, ``, "missing property 'run_id'"},
		{"payload not object", `"payload":{`, `"payload":"x","old":{`, "/payload"},
		{"bad status", `"status":"completed"`, `"status":"done"`, "/payload/status"},
		{"bad exit code", `"exit_code":0`, `"exit_code":7`, "/payload/exit_code"},
		{"missing required payload field", `"text":"done",`, ``, "/payload"},
		{"wrong payload field type", `"rounds":1`, `"rounds":"1"`, "/payload/rounds"},
		{"negative usage", `"input_tokens":10`, `"input_tokens":-1`, "/payload/usage/input_tokens"},
		{"failed without error", `"status":"completed","exit_code":0`, `"status":"failed","exit_code":1`, "/payload"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			line := strings.Replace(validLine, c.from, c.to, 1)
			if line == validLine {
				t.Fatalf("case does not change the line")
			}
			err := Validate([]byte(line))
			if err == nil {
				t.Fatalf("accepted %s", line)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not name %s", err, c.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
		})
	}
}

func TestValidateRejectsPayloadMismatch(t *testing.T) {
	bad := []struct {
		ty      Type
		payload any
		path    string
	}{
		{ToolResult, ToolResultP{Round: 1, CallID: "c", Name: "n", OK: false}, "/payload"},
		{ToolResult, ToolResultP{Round: 1, CallID: "c", Name: "n", OK: true, Error: &ErrorInfo{Code: "x"}}, "/payload"},
		{AskAnswer, AskAnswerP{CallID: "c", Status: "maybe", Via: ViaDriver}, "/payload/status"},
		{AskAnswer, AskAnswerP{CallID: "c", Status: AskAnswered, Source: "guess", Via: ViaDriver}, "/payload/source"},
		{ConfirmResult, ConfirmResultP{CallID: "c", Tool: "t", Decision: "yes", Via: ViaTerminal}, "/payload/decision"},
		{ConfirmResult, ConfirmResultP{CallID: "c", Tool: "t", Decision: DecisionDeny, Via: "email"}, "/payload/via"},
		{MessageT, MessageP{Round: 1, FinishReason: "end_turn"}, "/payload/finish_reason"},
		{RoundStarted, RoundStartedP{Round: 0}, "/payload/round"},
		{TodoUpdated, TodoUpdatedP{Todos: []Todo{{Content: "x", Status: "done"}}}, "/payload/todos/0/status"},
		{RunStarted, RunStartedP{SessionID: "ses_1", ReasoningContext: "all"}, "/payload/reasoning_context"},
		// A payload meant for another type fails that type's definition.
		{ToolCall, DeltaP{Round: 1, Text: "x"}, "/payload"},
	}
	for _, b := range bad {
		rec := &recorder{}
		NewEmitter("run_1", "ses_1", fixedClock(), rec).Emit(b.ty, b.payload)
		err := Validate(rec.lines[0])
		if err == nil {
			t.Errorf("%s accepted: %s", b.ty, rec.lines[0])
			continue
		}
		if !strings.Contains(err.Error(), b.path) {
			t.Errorf("%s: error %q does not name %s", b.ty, err, b.path)
		}
	}
}

func TestValidateRejectsNonJSON(t *testing.T) {
	for _, in := range []string{"", "not json", validLine + validLine, `{"v":1`} {
		if err := Validate([]byte(in)); err == nil {
			t.Errorf("accepted %q", in)
		}
	}
}
