package anthropic

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// wireMessage is one entry of "messages". Content is always a block list so
// that merged turns keep every block.
type wireMessage struct {
	Role    string `json:"role"`
	Content []any  `json:"content"`
}

type textBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type imageBlock struct {
	Type   string      `json:"type"`
	Source imageSource `json:"source"`
}

type imageSource struct {
	Type      string `json:"type"`
	MediaType string `json:"media_type,omitempty"`
	Data      string `json:"data,omitempty"`
	URL       string `json:"url,omitempty"`
}

type thinkingBlock struct {
	Type      string `json:"type"`
	Thinking  string `json:"thinking"`
	Signature string `json:"signature"`
}

type redactedThinkingBlock struct {
	Type string `json:"type"`
	Data string `json:"data"`
}

type toolUseBlock struct {
	Type  string          `json:"type"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

type toolResultBlock struct {
	Type      string `json:"type"`
	ToolUseID string `json:"tool_use_id"`
	Content   string `json:"content"`
	IsError   bool   `json:"is_error,omitempty"`
}

type wireTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// emptyObjectSchema is sent for a tool without a parameter schema: the API
// requires an input_schema of type object.
var emptyObjectSchema = json.RawMessage(`{"type":"object","properties":{}}`)

// encodeRequest renders req as a Messages request body. req.Params are
// merged last; a nil param value removes the field.
func encodeRequest(req *providers.Request) ([]byte, error) {
	msgs, err := encodeMessages(req.Messages)
	if err != nil {
		return nil, err
	}
	maxTokens, err := maxTokensFor(req)
	if err != nil {
		return nil, err
	}
	body := map[string]any{
		"model":      req.Model,
		"max_tokens": maxTokens,
		"messages":   msgs,
	}
	if req.System != "" {
		body["system"] = req.System
	}
	if len(req.Tools) > 0 {
		tools := make([]wireTool, 0, len(req.Tools))
		for _, t := range req.Tools {
			params := json.RawMessage(t.Parameters)
			if len(bytes.TrimSpace(params)) == 0 {
				params = emptyObjectSchema
			} else if !json.Valid(params) {
				return nil, fmt.Errorf("tool %q has a parameter schema that is not valid JSON", t.Name)
			}
			tools = append(tools, wireTool{Name: t.Name, Description: t.Description, InputSchema: params})
		}
		body["tools"] = tools
		if req.NoToolCalls {
			body["tool_choice"] = map[string]string{"type": "none"}
		}
	}
	if req.Stream {
		body["stream"] = true
	}
	if s := req.Schema; s != nil {
		if !json.Valid(s.Schema) {
			return nil, fmt.Errorf("the output schema is not valid JSON")
		}
		body["output_config"] = map[string]any{"format": map[string]any{"type": "json_schema", "schema": json.RawMessage(s.Schema)}}
	}
	providers.ApplyParams(body, req.Params)
	return json.Marshal(body)
}

// MinThinkingBudget is the smallest thinking.budget_tokens the API takes.
const MinThinkingBudget = 1024

// maxTokensFor computes max_tokens from the output limit and the thinking
// budget. The API counts thinking inside max_tokens and wants max_tokens
// above budget_tokens, so an output limit is the whole cap and must exceed
// the budget, and no limit gives the budget plus DefaultMaxTokens for the
// answer (Anthropic's docs: max_tokens = budget + the answer's room). A
// max_tokens given by --param is sent as given but checked the same way.
// Errors wrap providers.ErrInvalidRequest.
func maxTokensFor(req *providers.Request) (int, error) {
	budget, err := thinkingBudget(req.Params["thinking"])
	if err != nil {
		return 0, err
	}
	if v, set := req.Params["max_tokens"]; set && v != nil {
		n, ok := v.(float64)
		if i, isInt := v.(int); isInt {
			n, ok = float64(i), true
		}
		if ok && budget > 0 && int(n) <= budget {
			return 0, fmt.Errorf("%w: --param max_tokens=%d must be above thinking.budget_tokens %d (Anthropic counts thinking inside max_tokens)", providers.ErrInvalidRequest, int(n), budget)
		}
		// ApplyParams puts the given value in place of this one.
		return int(n), nil
	}
	limit := req.MaxOutputTokens
	switch {
	case limit > 0 && budget > 0 && limit <= budget:
		return 0, fmt.Errorf("%w: --max-output-tokens %d must be above the thinking budget %d (Anthropic counts thinking inside the output limit); raise it above %d, or leave it unset for %d", providers.ErrInvalidRequest, limit, budget, budget, budget+DefaultMaxTokens)
	case limit > 0:
		return limit, nil
	}
	return budget + DefaultMaxTokens, nil
}

// CheckRequest refuses settings the API would reject: an output limit at
// or below the thinking budget, a budget under MinThinkingBudget (see
// providers.RequestChecker).
func (c *Client) CheckRequest(req *providers.Request) error {
	_, err := maxTokensFor(req)
	return err
}

// thinkingBudget reads thinking.budget_tokens from a --param value: 0 when
// thinking is not enabled with a budget, an error wrapping
// providers.ErrInvalidRequest when the budget cannot be sent.
func thinkingBudget(v any) (int, error) {
	if v == nil {
		return 0, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return 0, nil
	}
	var t struct {
		Type         string   `json:"type"`
		BudgetTokens *float64 `json:"budget_tokens"`
	}
	if json.Unmarshal(b, &t) != nil || t.BudgetTokens == nil || t.Type == "disabled" {
		return 0, nil
	}
	n := *t.BudgetTokens
	if n < MinThinkingBudget || n > 1<<30 || n != float64(int(n)) {
		return 0, fmt.Errorf("%w: thinking.budget_tokens %v must be a whole number of at least %d", providers.ErrInvalidRequest, n, MinThinkingBudget)
	}
	return int(n), nil
}

// encodeMessages converts the canonical conversation and merges consecutive
// turns of one role, which the API requires to alternate.
func encodeMessages(in []providers.Message) ([]wireMessage, error) {
	var out []wireMessage
	for i, m := range in {
		var role string
		var blocks []any
		switch m.Role {
		case providers.RoleUser:
			role, blocks = "user", userBlocks(m)
		case providers.RoleAssistant:
			role, blocks = "assistant", assistantBlocks(m)
		case providers.RoleTool:
			role, blocks = "user", resultBlocks(m)
		default:
			return nil, fmt.Errorf("message %d has unknown role %q", i, m.Role)
		}
		// The API rejects empty turns; one with nothing to say is left out.
		if len(blocks) == 0 {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Role == role {
			out[n-1].Content = append(out[n-1].Content, blocks...)
			continue
		}
		out = append(out, wireMessage{Role: role, Content: blocks})
	}
	for i := range out {
		if out[i].Role == "user" {
			out[i].Content = resultsFirst(out[i].Content)
		}
	}
	return out, nil
}

// resultsFirst moves tool_result blocks to the front of a user turn, where
// the API wants them, keeping every other block in order after them.
func resultsFirst(blocks []any) []any {
	results := make([]any, 0, len(blocks))
	var rest []any
	for _, b := range blocks {
		if _, ok := b.(toolResultBlock); ok {
			results = append(results, b)
		} else {
			rest = append(rest, b)
		}
	}
	return append(results, rest...)
}

func userBlocks(m providers.Message) []any {
	var blocks []any
	for _, p := range m.Parts {
		switch {
		case p.Type == providers.PartText && p.Text != "":
			// Empty text blocks are rejected by the API.
			blocks = append(blocks, textBlock{Type: "text", Text: p.Text})
		case p.Type == providers.PartImage && p.Image != nil:
			blocks = append(blocks, imageBlock{Type: "image", Source: imageSourceOf(p.Image)})
		}
	}
	return blocks
}

func imageSourceOf(img *providers.Image) imageSource {
	if len(img.Data) == 0 && img.URL != "" {
		return imageSource{Type: "url", URL: img.URL}
	}
	mime := img.MIMEType
	if mime == "" {
		mime = "image/png"
	}
	return imageSource{Type: "base64", MediaType: mime, Data: base64.StdEncoding.EncodeToString(img.Data)}
}

// assistantBlocks keeps the provider's order: thinking, text and tool_use
// interleave, and a thinking block must stay before the tool_use it led to.
// Reasoning from another protocol is dropped: its opaque data means nothing
// here, and unsigned thinking would be rejected.
func assistantBlocks(m providers.Message) []any {
	var blocks []any
	for _, p := range m.Parts {
		switch {
		case p.Type == providers.PartReasoning && p.Reasoning != nil:
			r := p.Reasoning
			if r.Protocol != providers.ProtocolAnthropic {
				continue
			}
			switch {
			case r.Redacted != "":
				blocks = append(blocks, redactedThinkingBlock{Type: "redacted_thinking", Data: r.Redacted})
			case r.Signature != "":
				blocks = append(blocks, thinkingBlock{Type: "thinking", Thinking: r.Text, Signature: r.Signature})
			}
		case p.Type == providers.PartText && p.Text != "":
			blocks = append(blocks, textBlock{Type: "text", Text: p.Text})
		case p.Type == providers.PartToolCall && p.ToolCall != nil:
			blocks = append(blocks, toolUseBlock{Type: "tool_use", ID: wireID(p.ToolCall.ID), Name: p.ToolCall.Name, Input: inputObject(p.ToolCall.Arguments)})
		}
	}
	return blocks
}

func resultBlocks(m providers.Message) []any {
	var blocks []any
	for _, p := range m.Parts {
		if p.Type == providers.PartToolResult && p.ToolResult != nil {
			r := p.ToolResult
			blocks = append(blocks, toolResultBlock{Type: "tool_result", ToolUseID: wireID(r.CallID), Content: r.Content, IsError: r.IsError})
		}
	}
	return blocks
}

// inputObject is a tool call's arguments as the object tool_use.input must
// be. Arguments that are not a JSON object (a model's broken output, already
// answered with an invalid_arguments result) are sent as {}.
func inputObject(args string) json.RawMessage {
	trimmed := strings.TrimSpace(args)
	if strings.HasPrefix(trimmed, "{") && json.Valid([]byte(trimmed)) {
		return json.RawMessage(trimmed)
	}
	return json.RawMessage("{}")
}

// wireID makes a call id fit the API's ^[a-zA-Z0-9_-]+$: ids made by other
// providers (a session continued on another protocol) may hold other
// characters. The same mapping is applied to tool_use and tool_result, so
// they still match.
func wireID(id string) string {
	if id == "" {
		return "toolu_none"
	}
	ok := true
	for i := 0; i < len(id); i++ {
		if !idChar(id[i]) {
			ok = false
			break
		}
	}
	if ok {
		return id
	}
	b := []byte(id)
	for i := range b {
		if !idChar(b[i]) {
			b[i] = '_'
		}
	}
	return string(b)
}

func idChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}
