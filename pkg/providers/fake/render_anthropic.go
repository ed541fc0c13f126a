package fake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
)

// anthropicRenderer renders Messages API answers the way api.anthropic.com
// does (compare scenarios/anthropic/*.http): named SSE events message_start,
// content_block_start/delta/stop, message_delta (stop reason and cumulative
// usage), message_stop; error events as "event: error". Thinking blocks end
// with a signature_delta just before their content_block_stop.
//
// The API streams one content block at a time, so tool-call fragments are
// gathered until the next non-tool step and each call is then sent as one
// tool_use block whose input arrives in the scripted fragments (after the
// empty first input_json_delta the API sends).
type anthropicRenderer struct {
	info  requestInfo
	model string
	id    string
	usage *Usage

	next    int    // index of the next content block
	open    string // type of the open block: "", "text", "thinking"
	openIdx int
	calls   []*pendingCall
	byIndex map[int]*pendingCall
	stop    string
	// failed is set by an error event, after which the API sends nothing.
	failed bool
}

// pendingCall is a tool call whose fragments are being gathered.
type pendingCall struct {
	index    int
	id, name string
	frags    []string
}

func newAnthropicRenderer(info requestInfo, model string) *anthropicRenderer {
	return &anthropicRenderer{info: info, model: model, id: fmt.Sprintf("msg_fake%06d", info.seq), byIndex: map[int]*pendingCall{}}
}

type anUsage struct {
	InputTokens              int             `json:"input_tokens"`
	OutputTokens             int             `json:"output_tokens"`
	CacheCreationInputTokens int             `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int             `json:"cache_read_input_tokens"`
	CacheCreation            anCacheCreation `json:"cache_creation"`
	ServerToolUse            *struct{}       `json:"server_tool_use"`
	ServiceTier              string          `json:"service_tier"`
	InferenceGeo             *string         `json:"inference_geo"`
}

type anCacheCreation struct {
	Ephemeral5m int `json:"ephemeral_5m_input_tokens"`
	Ephemeral1h int `json:"ephemeral_1h_input_tokens"`
}

// anthropicUsage splits tavo's input count (every prompt token) into the
// API's uncached input_tokens and cache_read_input_tokens.
func anthropicUsage(u *Usage, output int) anUsage {
	if u == nil {
		u = &Usage{}
	}
	return anUsage{
		InputTokens:          max(u.InputTokens-u.CachedTokens, 0),
		OutputTokens:         output,
		CacheReadInputTokens: u.CachedTokens,
		ServiceTier:          "standard",
	}
}

// anMessage is the Message object; field order follows the real API.
type anMessage struct {
	ID           string    `json:"id"`
	Type         string    `json:"type"`
	Role         string    `json:"role"`
	Model        string    `json:"model"`
	Content      []any     `json:"content"`
	StopReason   *string   `json:"stop_reason"`
	StopSequence *string   `json:"stop_sequence"`
	StopDetails  *struct{} `json:"stop_details"`
	Container    *struct{} `json:"container"`
	Usage        anUsage   `json:"usage"`
}

type anText struct {
	Type      string    `json:"type"`
	Text      string    `json:"text"`
	Citations *struct{} `json:"citations"`
}

type anThinking struct {
	Type      string `json:"type"`
	Thinking  string `json:"thinking"`
	Signature string `json:"signature"`
}

type anToolUse struct {
	Type   string          `json:"type"`
	ID     string          `json:"id"`
	Name   string          `json:"name"`
	Input  json.RawMessage `json:"input"`
	Caller anCaller        `json:"caller"`
}

type anCaller struct {
	Type string `json:"type"`
}

func (r *anthropicRenderer) plan(steps []Step) {
	for _, s := range steps {
		if s.Usage != nil {
			r.usage = s.Usage
		}
	}
}

func (r *anthropicRenderer) streamContentType() string { return "text/event-stream; charset=utf-8" }

func (r *anthropicRenderer) streamStart() []byte {
	var out bytes.Buffer
	u := anthropicUsage(r.usage, 1)
	msg := anMessage{ID: r.id, Type: "message", Role: "assistant", Model: r.model, Content: []any{}, Usage: u}
	writeEvent(&out, "message_start", map[string]any{"type": "message_start", "message": msg})
	return out.Bytes()
}

func (r *anthropicRenderer) streamStep(s Step) []byte {
	var out bytes.Buffer
	if r.failed {
		return nil
	}
	if s.ToolCall == nil && (s.Text != "" || s.Reasoning != "" || s.Finish != "" || s.Error != nil) {
		r.flushCalls(&out)
	}
	if s.Reasoning != "" {
		r.ensure(&out, "thinking")
		r.delta(&out, map[string]any{"type": "thinking_delta", "thinking": s.Reasoning})
	}
	if s.Text != "" {
		r.ensure(&out, "text")
		r.delta(&out, map[string]any{"type": "text_delta", "text": s.Text})
	}
	if tc := s.ToolCall; tc != nil {
		r.closeOpen(&out)
		c := r.byIndex[tc.Index]
		if c == nil {
			c = &pendingCall{index: tc.Index}
			r.byIndex[tc.Index] = c
			r.calls = append(r.calls, c)
		}
		if tc.ID != "" {
			c.id = tc.ID
		}
		c.name += tc.Name
		if tc.Arguments != "" {
			c.frags = append(c.frags, tc.Arguments)
		}
	}
	if s.Finish != "" {
		r.stop = anthropicStop(s.Finish)
	}
	if s.Error != nil {
		writeEvent(&out, "error", json.RawMessage(r.errorBody(s.Error, http.StatusInternalServerError)))
		r.failed = true
	}
	return out.Bytes()
}

func (r *anthropicRenderer) streamEnd(noDone bool) []byte {
	var out bytes.Buffer
	if r.failed {
		return nil
	}
	r.flushCalls(&out)
	r.closeOpen(&out)
	if r.stop != "" {
		output := 0
		if r.usage != nil {
			output = r.usage.OutputTokens
		}
		writeEvent(&out, "message_delta", map[string]any{
			"type":  "message_delta",
			"delta": map[string]any{"stop_reason": r.stop, "stop_sequence": nil, "stop_details": nil, "container": nil},
			"usage": map[string]any{"input_tokens": nil, "cache_creation_input_tokens": nil, "cache_read_input_tokens": nil, "output_tokens": output, "server_tool_use": nil},
		})
	}
	if !noDone {
		writeEvent(&out, "message_stop", map[string]any{"type": "message_stop"})
	}
	return out.Bytes()
}

// ensure opens a block of typ unless one is open.
func (r *anthropicRenderer) ensure(out *bytes.Buffer, typ string) {
	if r.open == typ {
		return
	}
	r.closeOpen(out)
	var cb any = anText{Type: "text"}
	if typ == "thinking" {
		cb = anThinking{Type: "thinking"}
	}
	r.open, r.openIdx = typ, r.next
	r.next++
	writeEvent(out, "content_block_start", map[string]any{"type": "content_block_start", "index": r.openIdx, "content_block": cb})
}

func (r *anthropicRenderer) delta(out *bytes.Buffer, d map[string]any) {
	writeEvent(out, "content_block_delta", map[string]any{"type": "content_block_delta", "index": r.openIdx, "delta": d})
}

// closeOpen ends the open text or thinking block; a thinking block gets its
// signature first, as the API sends it.
func (r *anthropicRenderer) closeOpen(out *bytes.Buffer) {
	if r.open == "" {
		return
	}
	if r.open == "thinking" {
		r.delta(out, map[string]any{"type": "signature_delta", "signature": ThinkingSignature(r.info.seq, r.openIdx)})
	}
	writeEvent(out, "content_block_stop", map[string]any{"type": "content_block_stop", "index": r.openIdx})
	r.open = ""
}

// flushCalls sends the gathered tool calls, each as one tool_use block.
func (r *anthropicRenderer) flushCalls(out *bytes.Buffer) {
	if len(r.calls) == 0 {
		return
	}
	r.closeOpen(out)
	sort.SliceStable(r.calls, func(i, j int) bool { return r.calls[i].index < r.calls[j].index })
	for _, c := range r.calls {
		idx := r.next
		r.next++
		writeEvent(out, "content_block_start", map[string]any{"type": "content_block_start", "index": idx,
			"content_block": anToolUse{Type: "tool_use", ID: anthropicID(c.id, r.info.seq, c.index), Name: c.name, Input: json.RawMessage("{}"), Caller: anCaller{"direct"}}})
		for _, f := range append([]string{""}, c.frags...) {
			writeEvent(out, "content_block_delta", map[string]any{"type": "content_block_delta", "index": idx,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": f}})
		}
		writeEvent(out, "content_block_stop", map[string]any{"type": "content_block_stop", "index": idx})
	}
	r.calls, r.byIndex = nil, map[int]*pendingCall{}
}

// anthropicID keeps a scripted call id when the API would accept it.
func anthropicID(id string, seq, index int) string {
	if id == "" {
		return fmt.Sprintf("toolu_fake%06d_%d", seq, index)
	}
	return id
}

// anthropicStop maps a script's finish reason to a stop_reason.
func anthropicStop(finish string) string {
	switch finish {
	case "stop":
		return "end_turn"
	case "tool_calls":
		return "tool_use"
	case "length":
		return "max_tokens"
	case "content_filter":
		return "refusal"
	}
	return finish
}

func (r *anthropicRenderer) whole(steps []Step) (int, []byte) {
	var raw strings.Builder
	var content []any
	var cur *strings.Builder
	curType := ""
	var curIdx int
	type acc struct {
		block int
		index int
		id    string
		name  string
		args  strings.Builder
	}
	calls := map[int]*acc{}
	var order []*acc
	stop := "end_turn"
	usage := &Usage{}
	finishBlock := func() {
		if cur == nil {
			return
		}
		switch curType {
		case "text":
			content[curIdx] = anText{Type: "text", Text: cur.String()}
		case "thinking":
			content[curIdx] = anThinking{Type: "thinking", Thinking: cur.String(), Signature: ThinkingSignature(r.info.seq, curIdx)}
		}
		cur, curType = nil, ""
	}
	for _, s := range steps {
		if s.Error != nil {
			status := statusForAnthropicError(s.Error)
			return status, r.errorBody(s.Error, status)
		}
		raw.WriteString(s.Raw)
		for _, piece := range []struct{ typ, text string }{{"thinking", s.Reasoning}, {"text", s.Text}} {
			if piece.text == "" {
				continue
			}
			if curType != piece.typ {
				finishBlock()
				cur, curType, curIdx = &strings.Builder{}, piece.typ, len(content)
				content = append(content, nil)
			}
			cur.WriteString(piece.text)
		}
		if tc := s.ToolCall; tc != nil {
			finishBlock()
			a := calls[tc.Index]
			if a == nil {
				a = &acc{block: len(content), index: tc.Index}
				content = append(content, nil)
				calls[tc.Index] = a
				order = append(order, a)
			}
			if tc.ID != "" {
				a.id = tc.ID
			}
			a.name += tc.Name
			a.args.WriteString(tc.Arguments)
		}
		if s.Finish != "" {
			stop = anthropicStop(s.Finish)
		}
		if s.Usage != nil {
			usage = s.Usage
		}
	}
	finishBlock()
	if raw.Len() > 0 {
		return http.StatusOK, []byte(raw.String())
	}
	for _, a := range order {
		input := json.RawMessage(strings.TrimSpace(a.args.String()))
		if !json.Valid(input) || !bytes.HasPrefix(input, []byte("{")) {
			input = json.RawMessage("{}")
		}
		content[a.block] = anToolUse{Type: "tool_use", ID: anthropicID(a.id, r.info.seq, a.index), Name: a.name, Input: input, Caller: anCaller{"direct"}}
	}
	msg := anMessage{ID: r.id, Type: "message", Role: "assistant", Model: r.model, Content: content, StopReason: &stop, Usage: anthropicUsage(usage, usage.OutputTokens)}
	if msg.Content == nil {
		msg.Content = []any{}
	}
	return http.StatusOK, mustJSON(msg)
}

func (r *anthropicRenderer) errorBody(e *APIError, status int) []byte {
	typ := e.Type
	if typ == "" {
		typ = anthropicErrorType(status)
	}
	return mustJSON(map[string]any{
		"type":       "error",
		"error":      map[string]any{"type": typ, "message": e.Message},
		"request_id": fmt.Sprintf("req_fake%06d", r.info.seq),
	})
}

// anthropicErrorType is the error type the API uses for status.
func anthropicErrorType(status int) string {
	switch status {
	case http.StatusBadRequest:
		return "invalid_request_error"
	case http.StatusUnauthorized:
		return "authentication_error"
	case http.StatusPaymentRequired:
		return "billing_error"
	case http.StatusForbidden:
		return "permission_error"
	case http.StatusNotFound:
		return "not_found_error"
	case http.StatusRequestEntityTooLarge:
		return "request_too_large"
	case http.StatusTooManyRequests:
		return "rate_limit_error"
	case http.StatusGatewayTimeout:
		return "timeout_error"
	case 529:
		return "overloaded_error"
	}
	return "api_error"
}

// statusForAnthropicError is the status of a scripted error in a
// non-streamed answer.
func statusForAnthropicError(e *APIError) int {
	switch e.Type {
	case "overloaded_error":
		return 529
	case "rate_limit_error":
		return http.StatusTooManyRequests
	}
	return http.StatusInternalServerError
}

// writeEvent frames one named SSE event.
func writeEvent(w *bytes.Buffer, name string, payload any) {
	w.WriteString("event: ")
	w.WriteString(name)
	w.WriteString("\ndata: ")
	if raw, ok := payload.(json.RawMessage); ok {
		w.Write(raw)
	} else {
		w.Write(mustJSON(payload))
	}
	w.WriteString("\n\n")
}
