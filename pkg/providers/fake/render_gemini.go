package fake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
)

// geminiRenderer renders generateContent answers the way
// generativelanguage.googleapis.com does (compare scenarios/gemini/*.http):
// with alt=sse, one GenerateContentResponse per "data:" line, CRLF framing,
// no event names and no end marker; usageMetadata on every chunk; the
// finishReason on the last one. Thoughts are parts with "thought": true;
// the first functionCall part of an answer carries a thoughtSignature
// (ThoughtSignature), as Gemini 3 sends it; function calls have no id.
//
// Gemini never splits a function call, so fragments are gathered and each
// call is sent whole with the last chunk (or before the next text). A
// stream's NoDone leaves out that last chunk, since Gemini has no other end
// marker. A scripted Retry-After header becomes RetryInfo.retryDelay in a
// 429 body, where Gemini says how long to wait.
type geminiRenderer struct {
	info  requestInfo
	model string
	usage *Usage

	calls      []*pendingCall
	byIndex    map[int]*pendingCall
	signed     bool
	finish     string
	retryDelay string
	// failed is set by an error chunk, after which Gemini sends nothing.
	failed bool
}

func newGeminiRenderer(info requestInfo, model string) *geminiRenderer {
	return &geminiRenderer{info: info, model: model, byIndex: map[int]*pendingCall{}}
}

type gmResponse struct {
	Candidates    []gmCandidate `json:"candidates"`
	UsageMetadata *gmUsage      `json:"usageMetadata,omitempty"`
	ModelVersion  string        `json:"modelVersion"`
	ResponseID    string        `json:"responseId"`
}

type gmCandidate struct {
	Content      gmContent `json:"content"`
	FinishReason string    `json:"finishReason,omitempty"`
	Index        int       `json:"index"`
}

type gmContent struct {
	Parts []gmPart `json:"parts"`
	Role  string   `json:"role"`
}

type gmPart struct {
	Text             *string         `json:"text,omitempty"`
	Thought          bool            `json:"thought,omitempty"`
	FunctionCall     *gmFunctionCall `json:"functionCall,omitempty"`
	ThoughtSignature string          `json:"thoughtSignature,omitempty"`
}

type gmFunctionCall struct {
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

type gmUsage struct {
	PromptTokenCount        int                `json:"promptTokenCount"`
	CandidatesTokenCount    int                `json:"candidatesTokenCount"`
	TotalTokenCount         int                `json:"totalTokenCount"`
	CachedContentTokenCount int                `json:"cachedContentTokenCount,omitempty"`
	PromptTokensDetails     []gmModalityTokens `json:"promptTokensDetails"`
	ThoughtsTokenCount      int                `json:"thoughtsTokenCount,omitempty"`
}

type gmModalityTokens struct {
	Modality   string `json:"modality"`
	TokenCount int    `json:"tokenCount"`
}

// geminiUsage splits tavo's output count (answer and thoughts) into
// Gemini's candidatesTokenCount and thoughtsTokenCount. final is false for
// the chunks before the last, which only know the prompt.
func geminiUsage(u *Usage, final bool) *gmUsage {
	if u == nil {
		u = &Usage{}
	}
	g := &gmUsage{
		PromptTokenCount:        u.InputTokens,
		TotalTokenCount:         u.InputTokens,
		CachedContentTokenCount: u.CachedTokens,
		PromptTokensDetails:     []gmModalityTokens{{Modality: "TEXT", TokenCount: u.InputTokens}},
	}
	if final {
		g.CandidatesTokenCount = max(u.OutputTokens-u.ReasoningTokens, 0)
		g.ThoughtsTokenCount = u.ReasoningTokens
		g.TotalTokenCount = u.InputTokens + u.OutputTokens
	}
	return g
}

func (r *geminiRenderer) plan(steps []Step) {
	for _, s := range steps {
		if s.Usage != nil {
			r.usage = s.Usage
		}
	}
}

func (r *geminiRenderer) adaptHeaders(h http.Header) {
	for _, name := range []string{"Retry-After", "Retry-After-Ms"} {
		v := strings.TrimSpace(h.Get(name))
		if v == "" {
			continue
		}
		h.Del(name)
		secs, err := strconv.ParseFloat(v, 64)
		if err != nil || secs < 0 {
			continue
		}
		if name == "Retry-After-Ms" {
			secs /= 1000
		}
		r.retryDelay = strconv.FormatFloat(secs, 'f', -1, 64) + "s"
	}
}

func (r *geminiRenderer) streamContentType() string { return "text/event-stream" }

func (r *geminiRenderer) streamStart() []byte { return nil }

func (r *geminiRenderer) streamStep(s Step) []byte {
	var out bytes.Buffer
	if r.failed {
		return nil
	}
	if s.Error != nil {
		r.writeData(&out, compactJSON(r.errorBody(s.Error, http.StatusInternalServerError)))
		r.failed = true
		return out.Bytes()
	}
	if s.ToolCall == nil && (s.Text != "" || s.Reasoning != "") && len(r.calls) > 0 {
		r.writeChunk(&out, r.takeCalls(), "", false)
	}
	if s.Reasoning != "" {
		r.writeChunk(&out, []gmPart{{Text: &s.Reasoning, Thought: true}}, "", false)
	}
	if s.Text != "" {
		r.writeChunk(&out, []gmPart{{Text: &s.Text}}, "", false)
	}
	if s.ToolCall != nil {
		r.gather(s.ToolCall)
	}
	if s.Finish != "" {
		r.finish = geminiFinish(s.Finish)
	}
	// The last chunk, with the finish reason and the whole usage, goes out
	// at the end of the stream.
	return out.Bytes()
}

func (r *geminiRenderer) streamEnd(noDone bool) []byte {
	var out bytes.Buffer
	if !r.failed && !noDone && (r.finish != "" || len(r.calls) > 0) {
		r.final(&out)
	}
	return out.Bytes()
}

// final writes the last chunk: the gathered calls, or an empty text part as
// Gemini sends when the answer's text is already out.
func (r *geminiRenderer) final(out *bytes.Buffer) {
	parts := r.takeCalls()
	if len(parts) == 0 {
		empty := ""
		parts = []gmPart{{Text: &empty}}
	}
	finish := r.finish
	if finish == "" {
		finish = "STOP"
	}
	r.writeChunk(out, parts, finish, true)
}

// gather adds a tool-call fragment to its call.
func (r *geminiRenderer) gather(tc *ToolCallDelta) {
	c := r.byIndex[tc.Index]
	if c == nil {
		c = &pendingCall{index: tc.Index}
		r.byIndex[tc.Index] = c
		r.calls = append(r.calls, c)
	}
	c.name += tc.Name
	if tc.Arguments != "" {
		c.frags = append(c.frags, tc.Arguments)
	}
}

// takeCalls turns the gathered calls into functionCall parts, in index
// order, signing the first call of the answer.
func (r *geminiRenderer) takeCalls() []gmPart {
	sort.SliceStable(r.calls, func(i, j int) bool { return r.calls[i].index < r.calls[j].index })
	var parts []gmPart
	for _, c := range r.calls {
		p := gmPart{FunctionCall: &gmFunctionCall{Name: c.name, Args: argsObject(strings.Join(c.frags, ""))}}
		if !r.signed {
			p.ThoughtSignature = ThoughtSignature(r.info.seq)
			r.signed = true
		}
		parts = append(parts, p)
	}
	r.calls, r.byIndex = nil, map[int]*pendingCall{}
	return parts
}

// argsObject is a call's arguments as the object functionCall.args is.
func argsObject(args string) json.RawMessage {
	raw := json.RawMessage(strings.TrimSpace(args))
	if !json.Valid(raw) || !bytes.HasPrefix(raw, []byte("{")) {
		return json.RawMessage("{}")
	}
	return raw
}

func (r *geminiRenderer) writeChunk(out *bytes.Buffer, parts []gmPart, finish string, final bool) {
	resp := gmResponse{
		Candidates:    []gmCandidate{{Content: gmContent{Parts: parts, Role: "model"}, FinishReason: finish}},
		UsageMetadata: geminiUsage(r.usage, final),
		ModelVersion:  r.model,
		ResponseID:    r.responseID(),
	}
	r.writeData(out, geminiJSON(resp))
}

// writeData frames one event with CRLF line ends, as Gemini does.
func (r *geminiRenderer) writeData(out *bytes.Buffer, payload []byte) {
	out.WriteString("data: ")
	out.Write(payload)
	out.WriteString("\r\n\r\n")
}

func (r *geminiRenderer) responseID() string { return fmt.Sprintf("fakeResponse%06d", r.info.seq) }

// geminiFinish maps a script's finish reason to a finishReason.
func geminiFinish(finish string) string {
	switch finish {
	case "stop", "tool_calls":
		return "STOP"
	case "length":
		return "MAX_TOKENS"
	case "content_filter":
		return "SAFETY"
	}
	return strings.ToUpper(finish)
}

func (r *geminiRenderer) whole(steps []Step) (int, []byte) {
	var raw strings.Builder
	var parts []gmPart
	finish := "STOP"
	usage := &Usage{}
	for _, s := range steps {
		if s.Error != nil {
			return http.StatusInternalServerError, r.errorBody(s.Error, http.StatusInternalServerError)
		}
		raw.WriteString(s.Raw)
		if s.ToolCall == nil && (s.Text != "" || s.Reasoning != "") && len(r.calls) > 0 {
			parts = append(parts, r.takeCalls()...)
		}
		for _, piece := range []struct {
			text    string
			thought bool
		}{{s.Reasoning, true}, {s.Text, false}} {
			if piece.text == "" {
				continue
			}
			if n := len(parts); n > 0 && parts[n-1].Text != nil && parts[n-1].Thought == piece.thought {
				joined := *parts[n-1].Text + piece.text
				parts[n-1].Text = &joined
				continue
			}
			text := piece.text
			parts = append(parts, gmPart{Text: &text, Thought: piece.thought})
		}
		if s.ToolCall != nil {
			r.gather(s.ToolCall)
		}
		if s.Finish != "" {
			finish = geminiFinish(s.Finish)
		}
		if s.Usage != nil {
			usage = s.Usage
		}
	}
	if raw.Len() > 0 {
		return http.StatusOK, []byte(raw.String())
	}
	parts = append(parts, r.takeCalls()...)
	if parts == nil {
		parts = []gmPart{}
	}
	r.usage = usage
	resp := gmResponse{
		Candidates:    []gmCandidate{{Content: gmContent{Parts: parts, Role: "model"}, FinishReason: finish}},
		UsageMetadata: geminiUsage(usage, true),
		ModelVersion:  r.model,
		ResponseID:    r.responseID(),
	}
	var out bytes.Buffer
	_ = json.Indent(&out, mustJSON(resp), "", "  ")
	return http.StatusOK, out.Bytes()
}

// gmError is a google.rpc.Status envelope.
type gmError struct {
	Error gmStatus `json:"error"`
}

type gmStatus struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Status  string `json:"status"`
	Details []any  `json:"details,omitempty"`
}

func (r *geminiRenderer) errorBody(e *APIError, status int) []byte {
	st := gmStatus{Code: status, Message: e.Message, Status: e.Code}
	if st.Status == "" {
		st.Status = geminiStatus(status)
	}
	if r.retryDelay != "" {
		st.Details = append(st.Details, map[string]string{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": r.retryDelay})
	}
	var out bytes.Buffer
	_ = json.Indent(&out, mustJSON(gmError{Error: st}), "", "  ")
	return out.Bytes()
}

// geminiStatus is the google.rpc code name Gemini uses for an HTTP status.
func geminiStatus(status int) string {
	switch status {
	case http.StatusBadRequest:
		return "INVALID_ARGUMENT"
	case http.StatusUnauthorized:
		return "UNAUTHENTICATED"
	case http.StatusForbidden:
		return "PERMISSION_DENIED"
	case http.StatusNotFound:
		return "NOT_FOUND"
	case http.StatusTooManyRequests:
		return "RESOURCE_EXHAUSTED"
	case http.StatusServiceUnavailable:
		return "UNAVAILABLE"
	case http.StatusGatewayTimeout:
		return "DEADLINE_EXCEEDED"
	}
	return "INTERNAL"
}

// compactJSON puts an indented body on one line, as a stream event must be.
func compactJSON(b []byte) []byte {
	var out bytes.Buffer
	if json.Compact(&out, b) != nil {
		return b
	}
	return out.Bytes()
}

// geminiJSON marshals v the way Gemini prints stream chunks: a space after
// every key's colon, none after commas.
func geminiJSON(v any) []byte {
	compact := mustJSON(v)
	out := make([]byte, 0, len(compact)+len(compact)/8)
	inString, escaped := false, false
	for _, c := range compact {
		out = append(out, c)
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && c == ':':
			out = append(out, ' ')
		}
	}
	return out
}
