package fake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// responsesRenderer renders OpenAI Responses answers the way api.openai.com
// does (compare scenarios/openai-responses/*.http): "event: <type>" plus
// "data: <json>" with a sequence_number counting from 0; response.created and
// response.in_progress first; every output item announced by
// response.output_item.added and closed by response.output_item.done;
// reasoning summaries, output text and function-call arguments as deltas;
// response.completed (or response.incomplete) last, with the whole output
// and the usage. Reasoning items carry encrypted_content (EncryptedReasoning)
// when the request asked for include:["reasoning.encrypted_content"].
//
// Events name their item by output_index and item_id, so the argument
// fragments of several calls may interleave as the script says.
type responsesRenderer struct {
	info  requestInfo
	model string
	id    string
	seq   int

	items     []*rsItem
	reasoning *rsItem
	message   *rsItem
	calls     map[int]*rsItem
	finish    string
	usage     *Usage
	// failed is set by an error event, after which the API sends nothing.
	failed bool
}

// rsItem is one output item being rendered.
type rsItem struct {
	kind   string // reasoning, message, function_call
	index  int
	id     string
	text   strings.Builder
	callID string
	name   string
	done   bool
}

func newResponsesRenderer(info requestInfo, model string) *responsesRenderer {
	return &responsesRenderer{info: info, model: model, id: fmt.Sprintf("resp_fake%06d", info.seq), calls: map[int]*rsItem{}}
}

// object is a JSON object that keeps its keys in the order the real API
// prints them.
type object []field

type field struct {
	k string
	v any
}

// MarshalJSON writes the fields in order.
func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(mustJSON(f.k))
		b.WriteByte(':')
		b.Write(mustJSON(f.v))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func (r *responsesRenderer) streamContentType() string { return "text/event-stream; charset=utf-8" }

func (r *responsesRenderer) streamStart() []byte {
	var out bytes.Buffer
	r.event(&out, "response.created", field{"response", r.response("in_progress", "")})
	r.event(&out, "response.in_progress", field{"response", r.response("in_progress", "")})
	return out.Bytes()
}

func (r *responsesRenderer) streamStep(s Step) []byte {
	var out bytes.Buffer
	if r.failed {
		return nil
	}
	r.step(&out, s)
	return out.Bytes()
}

// step applies one step, writing its events to out.
func (r *responsesRenderer) step(out *bytes.Buffer, s Step) {
	if e := s.Error; e != nil {
		var code any
		if e.Code != "" {
			code = e.Code
		}
		r.event(out, "error", field{"code", code}, field{"message", e.Message}, field{"param", nil})
		r.failed = true
		return
	}
	if s.Reasoning != "" {
		r.closeMessage(out)
		if r.reasoning == nil {
			it := r.add("reasoning")
			it.id = ReasoningItemID(r.info.seq, it.index)
			r.reasoning = it
			r.announce(out, it)
			r.event(out, "response.reasoning_summary_part.added", field{"item_id", it.id}, field{"output_index", it.index},
				field{"summary_index", 0}, field{"part", object{{"type", "summary_text"}, {"text", ""}}})
		}
		r.reasoning.text.WriteString(s.Reasoning)
		r.event(out, "response.reasoning_summary_text.delta", field{"item_id", r.reasoning.id}, field{"output_index", r.reasoning.index},
			field{"summary_index", 0}, field{"delta", s.Reasoning})
	}
	if s.Text != "" {
		r.closeReasoning(out)
		if r.message == nil {
			it := r.add("message")
			it.id = fmt.Sprintf("msg_fake%06d_%d", r.info.seq, it.index)
			r.message = it
			r.announce(out, it)
			r.event(out, "response.content_part.added", field{"item_id", it.id}, field{"output_index", it.index},
				field{"content_index", 0}, field{"part", outputText("")})
		}
		r.message.text.WriteString(s.Text)
		r.event(out, "response.output_text.delta", field{"item_id", r.message.id}, field{"output_index", r.message.index},
			field{"content_index", 0}, field{"delta", s.Text}, field{"logprobs", []any{}})
	}
	if tc := s.ToolCall; tc != nil {
		r.closeReasoning(out)
		r.closeMessage(out)
		it := r.calls[tc.Index]
		if it == nil {
			it = r.add("function_call")
			it.id = fmt.Sprintf("fc_fake%06d_%d", r.info.seq, it.index)
			it.callID = tc.ID
			if it.callID == "" {
				it.callID = fmt.Sprintf("call_%d", tc.Index)
			}
			r.calls[tc.Index] = it
			it.name = tc.Name
			r.announce(out, it)
		} else {
			it.name += tc.Name
		}
		if tc.Arguments != "" {
			it.text.WriteString(tc.Arguments)
			r.event(out, "response.function_call_arguments.delta", field{"item_id", it.id}, field{"output_index", it.index}, field{"delta", tc.Arguments})
		}
	}
	if s.Finish != "" {
		r.finish = s.Finish
		r.closeAll(out)
	}
	if s.Usage != nil {
		r.usage = s.Usage
	}
}

func (r *responsesRenderer) streamEnd(noDone bool) []byte {
	var out bytes.Buffer
	if r.failed {
		return nil
	}
	r.closeAll(&out)
	if noDone {
		return nil
	}
	status, reason := r.status()
	typ := "response.completed"
	if status == "incomplete" {
		typ = "response.incomplete"
	}
	r.event(&out, typ, field{"response", r.response(status, reason)})
	return out.Bytes()
}

// status maps the script's finish reason to the response status and the
// incomplete_details reason.
func (r *responsesRenderer) status() (status, reason string) {
	switch r.finish {
	case "length":
		return "incomplete", "max_output_tokens"
	case "content_filter":
		return "incomplete", "content_filter"
	}
	return "completed", ""
}

func (r *responsesRenderer) add(kind string) *rsItem {
	it := &rsItem{kind: kind, index: len(r.items)}
	r.items = append(r.items, it)
	return it
}

func (r *responsesRenderer) announce(out *bytes.Buffer, it *rsItem) {
	r.event(out, "response.output_item.added", field{"output_index", it.index}, field{"item", r.item(it)})
}

func (r *responsesRenderer) closeReasoning(out *bytes.Buffer) {
	it := r.reasoning
	if it == nil {
		return
	}
	r.reasoning = nil
	text := it.text.String()
	r.event(out, "response.reasoning_summary_text.done", field{"item_id", it.id}, field{"output_index", it.index}, field{"summary_index", 0}, field{"text", text})
	r.event(out, "response.reasoning_summary_part.done", field{"item_id", it.id}, field{"output_index", it.index}, field{"summary_index", 0},
		field{"part", object{{"type", "summary_text"}, {"text", text}}})
	it.done = true
	r.event(out, "response.output_item.done", field{"output_index", it.index}, field{"item", r.item(it)})
}

func (r *responsesRenderer) closeMessage(out *bytes.Buffer) {
	it := r.message
	if it == nil {
		return
	}
	r.message = nil
	text := it.text.String()
	r.event(out, "response.output_text.done", field{"item_id", it.id}, field{"output_index", it.index}, field{"content_index", 0},
		field{"text", text}, field{"logprobs", []any{}})
	r.event(out, "response.content_part.done", field{"item_id", it.id}, field{"output_index", it.index}, field{"content_index", 0},
		field{"part", outputText(text)})
	it.done = true
	r.event(out, "response.output_item.done", field{"output_index", it.index}, field{"item", r.item(it)})
}

func (r *responsesRenderer) closeAll(out *bytes.Buffer) {
	r.closeReasoning(out)
	r.closeMessage(out)
	for _, it := range r.items {
		if it.kind != "function_call" || it.done {
			continue
		}
		it.done = true
		r.event(out, "response.function_call_arguments.done", field{"item_id", it.id}, field{"output_index", it.index},
			field{"name", it.name}, field{"arguments", it.text.String()})
		r.event(out, "response.output_item.done", field{"output_index", it.index}, field{"item", r.item(it)})
	}
	r.calls = map[int]*rsItem{}
}

// item renders an output item as it stands.
func (r *responsesRenderer) item(it *rsItem) object {
	status := "in_progress"
	if it.done {
		status = "completed"
	}
	switch it.kind {
	case "reasoning":
		summary := []any{}
		if it.done {
			summary = append(summary, object{{"type", "summary_text"}, {"text", it.text.String()}})
		}
		o := object{{"id", it.id}, {"type", "reasoning"}, {"summary", summary}}
		if r.info.includeEncrypted {
			o = append(o, field{"encrypted_content", EncryptedReasoning(r.info.seq, it.index)})
		}
		return o
	case "message":
		content := []any{}
		if it.done {
			content = append(content, outputText(it.text.String()))
		}
		return object{{"id", it.id}, {"type", "message"}, {"status", status}, {"content", content}, {"role", "assistant"}}
	}
	args := ""
	if it.done {
		args = it.text.String()
	}
	return object{{"id", it.id}, {"type", "function_call"}, {"status", status}, {"arguments", args}, {"call_id", it.callID}, {"name", it.name}}
}

func outputText(text string) object {
	return object{{"type", "output_text"}, {"annotations", []any{}}, {"logprobs", []any{}}, {"text", text}}
}

// response renders the Response object; the output and usage appear once
// the response is no longer in progress.
func (r *responsesRenderer) response(status, incomplete string) object {
	output := []any{}
	var completedAt, details, usage any
	if status != "in_progress" {
		for _, it := range r.items {
			output = append(output, r.item(it))
		}
		completedAt = fakeCreated + 2
		u := r.usage
		if u == nil {
			u = &Usage{}
		}
		usage = object{
			{"input_tokens", u.InputTokens},
			{"input_tokens_details", object{{"cached_tokens", u.CachedTokens}, {"cache_write_tokens", 0}}},
			{"output_tokens", u.OutputTokens},
			{"output_tokens_details", object{{"reasoning_tokens", u.ReasoningTokens}}},
			{"total_tokens", u.InputTokens + u.OutputTokens},
		}
	}
	if incomplete != "" {
		details = object{{"reason", incomplete}}
	}
	o := object{
		{"id", r.id}, {"object", "response"}, {"created_at", fakeCreated}, {"status", status}, {"background", false},
		{"completed_at", completedAt}, {"error", nil}, {"incomplete_details", details}, {"instructions", nil},
		{"max_output_tokens", nil}, {"max_tool_calls", nil}, {"model", r.model}, {"output", output},
		{"parallel_tool_calls", true}, {"previous_response_id", nil},
		{"reasoning", object{{"effort", nil}, {"summary", nil}}}, {"service_tier", "default"}, {"temperature", 1.0},
		{"text", object{{"format", object{{"type", "text"}}}, {"verbosity", "medium"}}}, {"tool_choice", "auto"},
		{"tools", []any{}}, {"top_logprobs", 0}, {"top_p", 1.0}, {"truncation", "disabled"},
	}
	if usage != nil {
		o = append(o, field{"usage", usage})
	}
	return append(o, field{"metadata", object{}})
}

// event writes one named event with its type first and its sequence number
// last, as the API does.
func (r *responsesRenderer) event(out *bytes.Buffer, typ string, fields ...field) {
	o := append(object{{"type", typ}}, fields...)
	o = append(o, field{"sequence_number", r.seq})
	r.seq++
	writeEvent(out, typ, json.RawMessage(mustJSON(o)))
}

func (r *responsesRenderer) whole(steps []Step) (int, []byte) {
	var raw strings.Builder
	var discard bytes.Buffer
	for _, s := range steps {
		if s.Error != nil {
			return http.StatusInternalServerError, r.errorBody(s.Error, http.StatusInternalServerError)
		}
		raw.WriteString(s.Raw)
		r.step(&discard, s)
	}
	if raw.Len() > 0 {
		return http.StatusOK, []byte(raw.String())
	}
	r.closeAll(&discard)
	var out bytes.Buffer
	_ = json.Indent(&out, mustJSON(r.response(r.status())), "", "  ")
	return http.StatusOK, out.Bytes()
}

func (r *responsesRenderer) errorBody(e *APIError, status int) []byte {
	return openAIErrorBody(e, status)
}
