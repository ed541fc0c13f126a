package openai

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// wireMessage is one entry of "messages". Content is any because it is a
// string, an array of parts, or null depending on the role.
type wireMessage struct {
	Role             string         `json:"role"`
	Content          any            `json:"content"`
	ReasoningContent string         `json:"reasoning_content,omitempty"`
	ToolCalls        []wireToolCall `json:"tool_calls,omitempty"`
	ToolCallID       string         `json:"tool_call_id,omitempty"`
}

type wireToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function wireFunction `json:"function"`
}

type wireFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type wirePart struct {
	Type     string        `json:"type"`
	Text     string        `json:"text,omitempty"`
	ImageURL *wireImageURL `json:"image_url,omitempty"`
}

type wireImageURL struct {
	URL string `json:"url"`
}

type wireTool struct {
	Type     string          `json:"type"`
	Function wireFunctionDef `json:"function"`
}

type wireFunctionDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

// emptyObjectSchema is sent for a tool without a parameter schema; OpenAI
// rejects a function whose parameters are missing or not an object schema.
var emptyObjectSchema = json.RawMessage(`{"type":"object","properties":{}}`)

// encodeRequest renders req as a Chat Completions request body. req.Params
// are merged last; a nil param value removes the field.
func encodeRequest(req *providers.Request) ([]byte, error) {
	msgs, err := encodeMessages(req)
	if err != nil {
		return nil, err
	}
	body := map[string]any{
		"model":    req.Model,
		"messages": msgs,
	}
	if len(req.Tools) > 0 {
		tools := make([]wireTool, 0, len(req.Tools))
		for _, t := range req.Tools {
			params := json.RawMessage(t.Parameters)
			if len(params) == 0 {
				params = emptyObjectSchema
			} else if !json.Valid(params) {
				return nil, fmt.Errorf("tool %q has a parameter schema that is not valid JSON", t.Name)
			}
			tools = append(tools, wireTool{Type: "function", Function: wireFunctionDef{Name: t.Name, Description: t.Description, Parameters: params}})
		}
		body["tools"] = tools
		if req.NoToolCalls {
			body["tool_choice"] = "none"
		}
	}
	if req.Stream {
		body["stream"] = true
		body["stream_options"] = map[string]any{"include_usage": true}
	}
	if req.MaxOutputTokens > 0 {
		body["max_completion_tokens"] = req.MaxOutputTokens
	}
	if req.Schema != nil {
		rf, err := responseFormat(req.Schema)
		if err != nil {
			return nil, err
		}
		body["response_format"] = rf
	}
	providers.ApplyParams(body, req.Params)
	return json.Marshal(body)
}

// encodeMessages converts the canonical conversation, system text first.
func encodeMessages(req *providers.Request) ([]wireMessage, error) {
	var out []wireMessage
	if req.System != "" {
		out = append(out, wireMessage{Role: "system", Content: req.System})
	}
	for i, m := range req.Messages {
		switch m.Role {
		case providers.RoleUser:
			out = append(out, encodeUser(m))
		case providers.RoleAssistant:
			out = append(out, encodeAssistant(m))
		case providers.RoleTool:
			for _, p := range m.Parts {
				if p.Type == providers.PartToolResult && p.ToolResult != nil {
					out = append(out, wireMessage{Role: "tool", ToolCallID: p.ToolResult.CallID, Content: p.ToolResult.Content})
				}
			}
		default:
			return nil, fmt.Errorf("message %d has unknown role %q", i, m.Role)
		}
	}
	return out, nil
}

// encodeUser sends plain text as a string, which every compatible server
// accepts, and switches to content parts only when there are images.
func encodeUser(m providers.Message) wireMessage {
	hasImage := false
	for _, p := range m.Parts {
		if p.Type == providers.PartImage && p.Image != nil {
			hasImage = true
		}
	}
	if !hasImage {
		return wireMessage{Role: "user", Content: joinText(m.Parts)}
	}
	parts := []wirePart{}
	for _, p := range m.Parts {
		switch {
		case p.Type == providers.PartText:
			parts = append(parts, wirePart{Type: "text", Text: p.Text})
		case p.Type == providers.PartImage && p.Image != nil:
			parts = append(parts, wirePart{Type: "image_url", ImageURL: &wireImageURL{URL: imageURL(p.Image)}})
		}
	}
	return wireMessage{Role: "user", Content: parts}
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

// encodeAssistant sends text, tool calls and the reasoning this protocol
// produced; content is null when there is only a tool call, as OpenAI does.
func encodeAssistant(m providers.Message) wireMessage {
	w := wireMessage{Role: "assistant"}
	var reasoning strings.Builder
	for _, p := range m.Parts {
		switch {
		case p.Type == providers.PartReasoning && p.Reasoning != nil && p.Reasoning.Protocol == providers.ProtocolOpenAI:
			reasoning.WriteString(p.Reasoning.Text)
		case p.Type == providers.PartToolCall && p.ToolCall != nil:
			args := p.ToolCall.Arguments
			if args == "" {
				// Servers parse arguments as JSON; an empty string breaks them.
				args = "{}"
			}
			w.ToolCalls = append(w.ToolCalls, wireToolCall{ID: p.ToolCall.ID, Type: "function", Function: wireFunction{Name: p.ToolCall.Name, Arguments: args}})
		}
	}
	w.ReasoningContent = reasoning.String()
	text := joinText(m.Parts)
	if text != "" || len(w.ToolCalls) == 0 {
		w.Content = text
	}
	return w
}

// joinText concatenates the text parts. A canonical message rarely has more
// than one; a newline keeps several from running together.
func joinText(parts []providers.Part) string {
	var texts []string
	for _, p := range parts {
		if p.Type == providers.PartText {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, "\n")
}
