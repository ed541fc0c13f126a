package fake

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

const responsesPath = "/v1/responses"

func TestResponsesStreamRenderedLikeTheRealAPI(t *testing.T) {
	sch := component(t, "openai.trimmed.json", "ResponseStreamEvent")
	srv := NewServer(t)
	srv.Enqueue(scriptedVariety())
	body := readBody(t, postTo(t, srv.URL, responsesPath, `{"model":"gpt-test","input":"hi","stream":true,"include":["reasoning.encrypted_content"]}`))
	events := sseEvents(t, body)
	var summary, text strings.Builder
	args := map[string]*strings.Builder{}
	for i, ev := range events {
		if err := validateWith(sch, []byte(ev.Data)); err != nil {
			t.Fatalf("event %d %s breaks ResponseStreamEvent: %v", i, ev.Data, err)
		}
		d := gjson.Parse(ev.Data)
		if d.Get("type").String() != ev.Name || d.Get("sequence_number").Int() != int64(i) {
			t.Fatalf("event %d: name %s, data %s", i, ev.Name, ev.Data)
		}
		switch ev.Name {
		case "response.reasoning_summary_text.delta":
			summary.WriteString(d.Get("delta").String())
		case "response.output_text.delta":
			text.WriteString(d.Get("delta").String())
		case "response.function_call_arguments.delta":
			id := d.Get("item_id").String()
			if args[id] == nil {
				args[id] = &strings.Builder{}
			}
			args[id].WriteString(d.Get("delta").String())
		}
	}
	if events[0].Name != "response.created" || events[1].Name != "response.in_progress" || events[len(events)-1].Name != "response.completed" {
		t.Fatalf("first %s, last %s", events[0].Name, events[len(events)-1].Name)
	}
	if summary.String() != "Let me think." || text.String() != "Calling tools." {
		t.Fatalf("summary %q text %q", summary.String(), text.String())
	}
	done := gjson.Get(events[len(events)-1].Data, "response")
	for path, want := range map[string]string{
		"status":                                       "completed",
		"output.0.type":                                "reasoning",
		"output.0.id":                                  ReasoningItemID(1, 0),
		"output.0.encrypted_content":                   EncryptedReasoning(1, 0),
		"output.0.summary.0.text":                      "Let me think.",
		"output.1.content.0.text":                      "Calling tools.",
		"output.2.call_id":                             "call_a",
		"output.2.arguments":                           `{"a":1}`,
		"output.3.name":                                "g",
		"output.3.arguments":                           `{"b":"x"}`,
		"usage.input_tokens_details.cached_tokens":     "10",
		"usage.output_tokens_details.reasoning_tokens": "5",
	} {
		if got := done.Get(path).String(); got != want {
			t.Errorf("%s = %q, want %q", path, got, want)
		}
	}
	if len(args) != 2 {
		t.Fatalf("argument deltas for %d items", len(args))
	}
}

func TestResponsesJSONRenderedLikeTheRealAPI(t *testing.T) {
	sch := component(t, "openai.trimmed.json", "Response")
	srv := NewServer(t)
	srv.Enqueue(scriptedVariety(), Reply{Text: "cut", Finish: "length"})
	body := readBody(t, postTo(t, srv.URL, responsesPath, `{"model":"gpt-test","input":"hi"}`))
	if err := validateWith(sch, []byte(body)); err != nil {
		t.Fatalf("%s breaks Response: %v", body, err)
	}
	if gjson.Get(body, "output.0.encrypted_content").Exists() {
		t.Fatal("encrypted_content sent without include")
	}
	if gjson.Get(body, "output.#").Int() != 4 || gjson.Get(body, "output.2.type").String() != "function_call" {
		t.Fatalf("output %s", gjson.Get(body, "output").Raw)
	}
	body = readBody(t, postTo(t, srv.URL, responsesPath, `{"model":"gpt-test","input":"hi"}`))
	if gjson.Get(body, "status").String() != "incomplete" || gjson.Get(body, "incomplete_details.reason").String() != "max_output_tokens" {
		t.Fatalf("length finish rendered as %s", body)
	}
}

func TestResponsesErrorEvent(t *testing.T) {
	sch := component(t, "openai.trimmed.json", "ResponseStreamEvent")
	srv := NewServer(t)
	srv.Enqueue(Reply{Steps: []Step{{Text: "a"}, {Error: &APIError{Message: "Rate limit reached", Code: "rate_limit_exceeded"}}, {Text: "never"}}})
	events := sseEvents(t, readBody(t, postTo(t, srv.URL, responsesPath, `{"model":"gpt-test","input":"hi","stream":true}`)))
	last := events[len(events)-1]
	if last.Name != "error" || gjson.Get(last.Data, "code").String() != "rate_limit_exceeded" {
		t.Fatalf("last event %s %s", last.Name, last.Data)
	}
	if err := validateWith(sch, []byte(last.Data)); err != nil {
		t.Fatalf("%s: %v", last.Data, err)
	}
}
