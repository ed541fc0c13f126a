package fake

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

const anthropicPath = "/v1/messages"

func TestAnthropicStreamRenderedLikeTheRealAPI(t *testing.T) {
	sch := component(t, "anthropic.trimmed.json", "MessageStreamEvent")
	srv := NewServer(t)
	srv.Enqueue(scriptedVariety())
	resp := postTo(t, srv.URL, anthropicPath, `{"model":"claude-test","max_tokens":100,"messages":[{"role":"user","content":"hi"}],"stream":true}`)
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("content type %q", ct)
	}
	events := sseEvents(t, readBody(t, resp))
	var names []string
	var thinking, text, sig strings.Builder
	args := map[int64]*strings.Builder{}
	var toolIDs []string
	for i, ev := range events {
		if err := validateWith(sch, []byte(ev.Data)); err != nil {
			t.Fatalf("event %d %s breaks MessageStreamEvent: %v", i, ev.Data, err)
		}
		if typ := gjson.Get(ev.Data, "type").String(); typ != ev.Name {
			t.Fatalf("event name %q but type %q", ev.Name, typ)
		}
		names = append(names, ev.Name)
		d := gjson.Parse(ev.Data)
		switch ev.Name {
		case "content_block_start":
			if cb := d.Get("content_block"); cb.Get("type").String() == "tool_use" {
				toolIDs = append(toolIDs, cb.Get("id").String()+"/"+cb.Get("name").String())
				args[d.Get("index").Int()] = &strings.Builder{}
			}
		case "content_block_delta":
			switch delta := d.Get("delta"); delta.Get("type").String() {
			case "thinking_delta":
				thinking.WriteString(delta.Get("thinking").String())
			case "signature_delta":
				sig.WriteString(delta.Get("signature").String())
				if next := events[i+1]; next.Name != "content_block_stop" {
					t.Fatalf("signature_delta not right before content_block_stop: %s", next.Name)
				}
			case "text_delta":
				text.WriteString(delta.Get("text").String())
			case "input_json_delta":
				args[d.Get("index").Int()].WriteString(delta.Get("partial_json").String())
			}
		case "message_start":
			u := d.Get("message.usage")
			if u.Get("input_tokens").Int() != 40 || u.Get("cache_read_input_tokens").Int() != 10 {
				t.Fatalf("message_start usage %s, want the input split into 40 uncached + 10 cache reads", u.Raw)
			}
		case "message_delta":
			if d.Get("delta.stop_reason").String() != "tool_use" || d.Get("usage.output_tokens").Int() != 20 {
				t.Fatalf("message_delta %s", ev.Data)
			}
		}
	}
	if names[0] != "message_start" || names[len(names)-1] != "message_stop" || names[len(names)-2] != "message_delta" {
		t.Fatalf("event order %v", names)
	}
	if thinking.String() != "Let me think." || text.String() != "Calling tools." || sig.String() != ThinkingSignature(1, 0) {
		t.Fatalf("thinking %q text %q signature %q", thinking.String(), text.String(), sig.String())
	}
	if strings.Join(toolIDs, ",") != "call_a/f,call_b/g" || args[2].String() != `{"a":1}` || args[3].String() != `{"b":"x"}` {
		t.Fatalf("tool blocks %v args %v %v", toolIDs, args[2], args[3])
	}
}

func TestAnthropicJSONRenderedLikeTheRealAPI(t *testing.T) {
	sch := component(t, "anthropic.trimmed.json", "Message")
	srv := NewServer(t)
	srv.Enqueue(scriptedVariety())
	body := readBody(t, postTo(t, srv.URL, anthropicPath, `{"model":"claude-test","max_tokens":100,"messages":[]}`))
	if err := validateWith(sch, []byte(body)); err != nil {
		t.Fatalf("%s breaks Message: %v", body, err)
	}
	var types []string
	for _, b := range gjson.Get(body, "content").Array() {
		types = append(types, b.Get("type").String())
	}
	if strings.Join(types, ",") != "thinking,text,tool_use,tool_use" {
		t.Fatalf("blocks %v", types)
	}
	for path, want := range map[string]string{
		"content.0.signature":           ThinkingSignature(1, 0),
		"content.2.input.a":             "1",
		"content.3.id":                  "call_b",
		"stop_reason":                   "tool_use",
		"usage.input_tokens":            "40",
		"usage.cache_read_input_tokens": "10",
		"model":                         "claude-test",
	} {
		if got := gjson.Get(body, path).String(); got != want {
			t.Errorf("%s = %q, want %q", path, got, want)
		}
	}
}

func TestAnthropicErrorsRenderedLikeTheRealAPI(t *testing.T) {
	sch := component(t, "anthropic.trimmed.json", "ErrorResponse")
	srv := NewServer(t)
	srv.Enqueue(
		Reply{Status: 529, Error: &APIError{Message: "Overloaded"}},
		Reply{Steps: []Step{{Text: "Hel"}, {Error: &APIError{Message: "Overloaded", Type: "overloaded_error"}}}},
	)
	resp := postTo(t, srv.URL, anthropicPath, `{"model":"claude-test","max_tokens":100,"messages":[{"role":"user","content":"hi"}]}`)
	body := readBody(t, resp)
	if resp.StatusCode != 529 || gjson.Get(body, "error.type").String() != "overloaded_error" {
		t.Fatalf("status %d body %s", resp.StatusCode, body)
	}
	if err := validateWith(sch, []byte(body)); err != nil {
		t.Fatalf("%s breaks ErrorResponse: %v", body, err)
	}
	events := sseEvents(t, readBody(t, postTo(t, srv.URL, anthropicPath, `{"model":"claude-test","max_tokens":100,"messages":[{"role":"user","content":"hi"}],"stream":true}`)))
	last := events[len(events)-1]
	if last.Name != "error" {
		t.Fatalf("last event %s, want error", last.Name)
	}
	if err := validateWith(sch, []byte(last.Data)); err != nil {
		t.Fatalf("%s breaks ErrorResponse: %v", last.Data, err)
	}
}

func TestAnthropicErrorTypes(t *testing.T) {
	for status, want := range map[int]string{400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
		404: "not_found_error", 413: "request_too_large", 429: "rate_limit_error", 500: "api_error", 529: "overloaded_error"} {
		if got := anthropicErrorType(status); got != want {
			t.Errorf("%d -> %s, want %s", status, got, want)
		}
	}
}
