package fake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
)

// Fixed values make rendered answers reproducible byte for byte.
const (
	fakeCreated     = 1741570283
	fakeFingerprint = "fp_fake_tavo"
)

// openaiRenderer renders Chat Completions answers the way api.openai.com
// does (compare scenarios/openai-chat/*.http): data-only SSE of
// chat.completion.chunk objects, the role in the first chunk, "usage":null on
// every chunk and a final usage chunk with empty choices when the request set
// stream_options.include_usage, then "data: [DONE]".
type openaiRenderer struct {
	info     requestInfo
	model    string
	id       string
	roleSent bool
}

func newOpenAIRenderer(info requestInfo, model string) *openaiRenderer {
	return &openaiRenderer{info: info, model: model, id: fmt.Sprintf("chatcmpl-fake%06d", info.seq)}
}

// Field order follows the real API; encoding/json keeps struct order.
type oaChunk struct {
	ID                string          `json:"id"`
	Object            string          `json:"object"`
	Created           int64           `json:"created"`
	Model             string          `json:"model"`
	ServiceTier       string          `json:"service_tier"`
	SystemFingerprint string          `json:"system_fingerprint"`
	Choices           []oaChunkChoice `json:"choices"`
	Usage             json.RawMessage `json:"usage,omitempty"`
}

type oaChunkChoice struct {
	Index        int       `json:"index"`
	Delta        oaDelta   `json:"delta"`
	Logprobs     *struct{} `json:"logprobs"`
	FinishReason *string   `json:"finish_reason"`
}

type oaDelta struct {
	Role             string          `json:"role,omitempty"`
	Content          json.RawMessage `json:"content,omitempty"`
	ReasoningContent *string         `json:"reasoning_content,omitempty"`
	ToolCalls        []oaToolDelta   `json:"tool_calls,omitempty"`
	Refusal          json.RawMessage `json:"refusal,omitempty"`
}

type oaToolDelta struct {
	Index    int         `json:"index"`
	ID       string      `json:"id,omitempty"`
	Type     string      `json:"type,omitempty"`
	Function oaFuncDelta `json:"function"`
}

type oaFuncDelta struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

type oaUsage struct {
	PromptTokens            int                 `json:"prompt_tokens"`
	CompletionTokens        int                 `json:"completion_tokens"`
	TotalTokens             int                 `json:"total_tokens"`
	PromptTokensDetails     oaPromptDetails     `json:"prompt_tokens_details"`
	CompletionTokensDetails oaCompletionDetails `json:"completion_tokens_details"`
}

type oaPromptDetails struct {
	CachedTokens int `json:"cached_tokens"`
	AudioTokens  int `json:"audio_tokens"`
}

type oaCompletionDetails struct {
	ReasoningTokens          int `json:"reasoning_tokens"`
	AudioTokens              int `json:"audio_tokens"`
	AcceptedPredictionTokens int `json:"accepted_prediction_tokens"`
	RejectedPredictionTokens int `json:"rejected_prediction_tokens"`
}

var (
	jsonNull        = json.RawMessage("null")
	jsonEmptyString = json.RawMessage(`""`)
)

func (r *openaiRenderer) streamContentType() string { return "text/event-stream; charset=utf-8" }

func (r *openaiRenderer) streamStart() []byte { return nil }

func (r *openaiRenderer) streamStep(s Step) []byte {
	var out bytes.Buffer
	if s.Error != nil {
		writeData(&out, r.errorBody(s.Error, http.StatusInternalServerError))
	}
	if s.Text != "" || s.Reasoning != "" || s.ToolCall != nil || s.Finish != "" {
		var d oaDelta
		if !r.roleSent {
			r.roleSent = true
			if s.ToolCall != nil && s.Text == "" && s.Reasoning == "" {
				// The real API puts the role into the first tool-call chunk.
				d.Role, d.Content, d.Refusal = "assistant", jsonNull, jsonNull
			} else {
				writeData(&out, r.chunk(oaDelta{Role: "assistant", Content: jsonEmptyString, Refusal: jsonNull}, ""))
			}
		}
		if s.Reasoning != "" {
			d.ReasoningContent = &s.Reasoning
		}
		if s.Text != "" {
			d.Content = jsonString(s.Text)
		}
		if tc := s.ToolCall; tc != nil {
			td := oaToolDelta{Index: tc.Index, ID: tc.ID, Function: oaFuncDelta{Name: tc.Name, Arguments: tc.Arguments}}
			if tc.ID != "" || tc.Name != "" {
				td.Type = "function"
			}
			d.ToolCalls = []oaToolDelta{td}
		}
		writeData(&out, r.chunk(d, s.Finish))
	}
	if s.Usage != nil && r.info.includeUsage {
		c := r.base()
		c.Choices = []oaChunkChoice{}
		c.Usage = mustJSON(openAIUsage(s.Usage))
		writeData(&out, mustJSON(c))
	}
	return out.Bytes()
}

func (r *openaiRenderer) streamEnd(noDone bool) []byte {
	if noDone {
		return nil
	}
	return []byte("data: [DONE]\n\n")
}

// base is a chunk without choices.
func (r *openaiRenderer) base() oaChunk {
	c := oaChunk{ID: r.id, Object: "chat.completion.chunk", Created: fakeCreated, Model: r.model, ServiceTier: "default", SystemFingerprint: fakeFingerprint}
	if r.info.includeUsage {
		c.Usage = jsonNull
	}
	return c
}

func (r *openaiRenderer) chunk(d oaDelta, finish string) []byte {
	c := r.base()
	ch := oaChunkChoice{Delta: d}
	if finish != "" {
		ch.FinishReason = &finish
	}
	c.Choices = []oaChunkChoice{ch}
	return mustJSON(c)
}

type oaResponse struct {
	ID                string             `json:"id"`
	Object            string             `json:"object"`
	Created           int64              `json:"created"`
	Model             string             `json:"model"`
	Choices           []oaResponseChoice `json:"choices"`
	Usage             oaUsage            `json:"usage"`
	ServiceTier       string             `json:"service_tier"`
	SystemFingerprint string             `json:"system_fingerprint"`
}

type oaResponseChoice struct {
	Index        int       `json:"index"`
	Message      oaMessage `json:"message"`
	Logprobs     *struct{} `json:"logprobs"`
	FinishReason string    `json:"finish_reason"`
}

type oaMessage struct {
	Role             string       `json:"role"`
	Content          *string      `json:"content"`
	ReasoningContent string       `json:"reasoning_content,omitempty"`
	ToolCalls        []oaToolCall `json:"tool_calls,omitempty"`
	Refusal          *string      `json:"refusal"`
	Annotations      []struct{}   `json:"annotations"`
}

type oaToolCall struct {
	ID       string     `json:"id"`
	Type     string     `json:"type"`
	Function oaFuncCall `json:"function"`
}

type oaFuncCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

func (r *openaiRenderer) whole(steps []Step) (int, []byte) {
	var text, reasoning, raw strings.Builder
	finish := "stop"
	usage := &Usage{}
	type acc struct {
		id, name string
		args     strings.Builder
	}
	calls := map[int]*acc{}
	for _, s := range steps {
		if s.Error != nil {
			return http.StatusInternalServerError, r.errorBody(s.Error, http.StatusInternalServerError)
		}
		raw.WriteString(s.Raw)
		text.WriteString(s.Text)
		reasoning.WriteString(s.Reasoning)
		if tc := s.ToolCall; tc != nil {
			a := calls[tc.Index]
			if a == nil {
				a = &acc{}
				calls[tc.Index] = a
			}
			if tc.ID != "" {
				a.id = tc.ID
			}
			a.name += tc.Name
			a.args.WriteString(tc.Arguments)
		}
		if s.Finish != "" {
			finish = s.Finish
		}
		if s.Usage != nil {
			usage = s.Usage
		}
	}
	if raw.Len() > 0 {
		return http.StatusOK, []byte(raw.String())
	}
	msg := oaMessage{Role: "assistant", ReasoningContent: reasoning.String(), Annotations: []struct{}{}}
	if text.Len() > 0 || len(calls) == 0 {
		t := text.String()
		msg.Content = &t
	}
	indexes := make([]int, 0, len(calls))
	for i := range calls {
		indexes = append(indexes, i)
	}
	sort.Ints(indexes)
	for _, i := range indexes {
		a := calls[i]
		msg.ToolCalls = append(msg.ToolCalls, oaToolCall{ID: a.id, Type: "function", Function: oaFuncCall{Name: a.name, Arguments: a.args.String()}})
	}
	resp := oaResponse{
		ID: r.id, Object: "chat.completion", Created: fakeCreated, Model: r.model,
		Choices:     []oaResponseChoice{{Message: msg, FinishReason: finish}},
		Usage:       openAIUsage(usage),
		ServiceTier: "default", SystemFingerprint: fakeFingerprint,
	}
	var out bytes.Buffer
	_ = json.Indent(&out, mustJSON(resp), "", "  ")
	return http.StatusOK, out.Bytes()
}

func (r *openaiRenderer) errorBody(e *APIError, status int) []byte {
	return openAIErrorBody(e, status)
}

// openAIErrorBody renders OpenAI's error envelope, shared by Chat
// Completions and Responses.
func openAIErrorBody(e *APIError, status int) []byte {
	typ := e.Type
	if typ == "" {
		typ = "invalid_request_error"
		if status >= 500 {
			typ = "server_error"
		}
	}
	var code, param any
	if e.Code != "" {
		code = e.Code
	}
	if e.Param != "" {
		param = e.Param
	}
	return mustJSON(oaErrorEnvelope{Error: oaError{Message: e.Message, Type: typ, Param: param, Code: code}})
}

type oaErrorEnvelope struct {
	Error oaError `json:"error"`
}

type oaError struct {
	Message string `json:"message"`
	Type    string `json:"type"`
	Param   any    `json:"param"`
	Code    any    `json:"code"`
}

func openAIUsage(u *Usage) oaUsage {
	return oaUsage{
		PromptTokens:            u.InputTokens,
		CompletionTokens:        u.OutputTokens,
		TotalTokens:             u.InputTokens + u.OutputTokens,
		PromptTokensDetails:     oaPromptDetails{CachedTokens: u.CachedTokens},
		CompletionTokensDetails: oaCompletionDetails{ReasoningTokens: u.ReasoningTokens},
	}
}

// writeData frames one SSE data event.
func writeData(w *bytes.Buffer, payload []byte) {
	w.WriteString("data: ")
	w.Write(payload)
	w.WriteString("\n\n")
}

func jsonString(s string) json.RawMessage { return mustJSON(s) }

// mustJSON marshals values that cannot fail (no channels, funcs or NaNs).
// Like the real APIs, it leaves <, > and & unescaped.
func mustJSON(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(fmt.Sprintf("fake: cannot marshal %T: %v", v, err))
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}
