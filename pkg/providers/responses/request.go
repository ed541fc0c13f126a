package responses

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/openai"
)

type messageItem struct {
	Role    string `json:"role"`
	Content any    `json:"content"`
}

type contentPart struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	ImageURL string `json:"image_url,omitempty"`
	Detail   string `json:"detail,omitempty"`
}

type reasoningItem struct {
	Type             string        `json:"type"`
	ID               string        `json:"id"`
	Summary          []summaryPart `json:"summary"`
	EncryptedContent string        `json:"encrypted_content"`
}

type summaryPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type functionCallItem struct {
	Type      string `json:"type"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type functionOutputItem struct {
	Type   string `json:"type"`
	CallID string `json:"call_id"`
	// Output is the result text, or content parts when images follow it.
	Output any `json:"output"`
}

type functionTool struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      bool            `json:"strict"`
}

// emptyObjectSchema is sent for a tool without a parameter schema.
var emptyObjectSchema = json.RawMessage(`{"type":"object","properties":{}}`)

// noEncryptedReasoning matches models that refuse include:
// ["reasoning.encrypted_content"] because they do not reason.
var noEncryptedReasoning = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(gpt-4|gpt-3\.5|chatgpt-|gpt-5[^-]*-chat)`) })

// encodeRequest renders req as a Responses request body. req.Params are
// merged last; a nil param value removes the field.
func encodeRequest(req *providers.Request) ([]byte, error) {
	input, err := encodeInput(req.Messages)
	if err != nil {
		return nil, err
	}
	body := map[string]any{
		"model": req.Model,
		"input": input,
		"store": false,
	}
	if !noEncryptedReasoning().MatchString(strings.ToLower(req.Model)) {
		body["include"] = []string{"reasoning.encrypted_content"}
	}
	if req.System != "" {
		body["instructions"] = req.System
	}
	if len(req.Tools) > 0 {
		tools := make([]functionTool, 0, len(req.Tools))
		for _, t := range req.Tools {
			params := json.RawMessage(t.Parameters)
			if len(bytes.TrimSpace(params)) == 0 {
				params = emptyObjectSchema
			} else if !json.Valid(params) {
				return nil, fmt.Errorf("tool %q has a parameter schema that is not valid JSON", t.Name)
			}
			tools = append(tools, functionTool{Type: "function", Name: t.Name, Description: t.Description, Parameters: params})
		}
		body["tools"] = tools
		if req.NoToolCalls {
			body["tool_choice"] = "none"
		}
	}
	if req.Stream {
		body["stream"] = true
	}
	if req.MaxOutputTokens > 0 {
		body["max_output_tokens"] = req.MaxOutputTokens
	}
	if s := req.Schema; s != nil {
		if !json.Valid(s.Schema) {
			return nil, fmt.Errorf("the output schema is not valid JSON")
		}
		body["text"] = map[string]any{"format": map[string]any{
			"type":   "json_schema",
			"name":   openai.SchemaName(s.Name),
			"schema": json.RawMessage(s.Schema),
			"strict": openai.StrictSchema(s.Schema),
		}}
	}
	providers.ApplyParams(body, req.Params)
	return json.Marshal(body)
}

// encodeInput converts the conversation to input items, in order.
func encodeInput(msgs []providers.Message) ([]any, error) {
	items := []any{}
	for i, m := range msgs {
		switch m.Role {
		case providers.RoleUser:
			if foldImages(items, m) {
				continue
			}
			if item, ok := userItem(m); ok {
				items = append(items, item)
			}
		case providers.RoleAssistant:
			items = append(items, assistantItems(m)...)
		case providers.RoleTool:
			for _, p := range m.Parts {
				if p.Type == providers.PartToolResult && p.ToolResult != nil {
					items = append(items, functionOutputItem{Type: "function_call_output", CallID: p.ToolResult.CallID, Output: p.ToolResult.Content})
				}
			}
		default:
			return nil, fmt.Errorf("message %d has unknown role %q", i, m.Role)
		}
	}
	return items, nil
}

// foldImages puts a user message with images that follows tool results
// (the images those tools produced, SPEC §11) into the last
// function_call_output as content parts, and reports whether it did. There
// they are what the API documents for tool images; a user message with
// content parts would also be ambiguous to the official schema (it matches
// both of the input item shapes its oneOf lists).
func foldImages(items []any, m providers.Message) bool {
	if len(items) == 0 {
		return false
	}
	last, ok := items[len(items)-1].(functionOutputItem)
	if !ok {
		return false
	}
	item, ok := userItem(m)
	parts, isParts := item.Content.([]contentPart)
	if !ok || !isParts {
		return false
	}
	text, _ := last.Output.(string)
	last.Output = append([]contentPart{{Type: "input_text", Text: text}}, parts...)
	items[len(items)-1] = last
	return true
}

// userItem sends plain text as a string and switches to content parts only
// for images.
func userItem(m providers.Message) (messageItem, bool) {
	var parts []contentPart
	var texts []string
	hasImage := false
	for _, p := range m.Parts {
		switch {
		case p.Type == providers.PartText:
			texts = append(texts, p.Text)
			parts = append(parts, contentPart{Type: "input_text", Text: p.Text})
		case p.Type == providers.PartImage && p.Image != nil:
			hasImage = true
			parts = append(parts, contentPart{Type: "input_image", ImageURL: imageURL(p.Image), Detail: "auto"})
		}
	}
	if len(parts) == 0 {
		return messageItem{}, false
	}
	if !hasImage {
		return messageItem{Role: "user", Content: strings.Join(texts, "\n")}, true
	}
	return messageItem{Role: "user", Content: parts}, true
}

func imageURL(img *providers.Image) string {
	if len(img.Data) == 0 && img.URL != "" {
		return img.URL
	}
	mime := img.MIMEType
	if mime == "" {
		mime = "application/octet-stream"
	}
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(img.Data)
}

// assistantItems keeps the order the model produced: a reasoning item must
// come right before the item it led to. Reasoning of another protocol, or
// without encrypted content, is left out.
func assistantItems(m providers.Message) []any {
	var items []any
	var text []string
	flush := func() {
		if len(text) > 0 {
			items = append(items, messageItem{Role: "assistant", Content: strings.Join(text, "\n")})
			text = nil
		}
	}
	for _, p := range m.Parts {
		switch {
		case p.Type == providers.PartReasoning && p.Reasoning != nil:
			r := p.Reasoning
			if r.Protocol != providers.ProtocolOpenAIResponses || r.Encrypted == "" || r.ID == "" {
				continue
			}
			flush()
			summary := []summaryPart{}
			if r.Text != "" {
				summary = append(summary, summaryPart{Type: "summary_text", Text: r.Text})
			}
			items = append(items, reasoningItem{Type: "reasoning", ID: r.ID, Summary: summary, EncryptedContent: r.Encrypted})
		case p.Type == providers.PartText && p.Text != "":
			text = append(text, p.Text)
		case p.Type == providers.PartToolCall && p.ToolCall != nil:
			flush()
			args := p.ToolCall.Arguments
			if strings.TrimSpace(args) == "" {
				args = "{}"
			}
			items = append(items, functionCallItem{Type: "function_call", CallID: p.ToolCall.ID, Name: p.ToolCall.Name, Arguments: args})
		}
	}
	flush()
	// The API refuses a reasoning item with nothing after it (an answer cut
	// off while reasoning).
	if n := len(items); n > 0 {
		if _, ok := items[n-1].(reasoningItem); ok {
			items = items[:n-1]
		}
	}
	return items
}
