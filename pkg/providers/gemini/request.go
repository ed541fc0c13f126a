package gemini

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tavo-cli/tavo/pkg/providers"
)

type content struct {
	Role  string `json:"role,omitempty"`
	Parts []part `json:"parts"`
}

// part is one Part; exactly one data field is set. Text is a pointer so an
// empty text part that only carries a signature can be sent back.
type part struct {
	Text             *string           `json:"text,omitempty"`
	Thought          bool              `json:"thought,omitempty"`
	InlineData       *blob             `json:"inlineData,omitempty"`
	FileData         *fileData         `json:"fileData,omitempty"`
	FunctionCall     *functionCall     `json:"functionCall,omitempty"`
	FunctionResponse *functionResponse `json:"functionResponse,omitempty"`
	ThoughtSignature string            `json:"thoughtSignature,omitempty"`
}

type blob struct {
	MIMEType string `json:"mimeType"`
	Data     string `json:"data"`
}

type fileData struct {
	MIMEType string `json:"mimeType,omitempty"`
	FileURI  string `json:"fileUri"`
}

type functionCall struct {
	ID   string          `json:"id,omitempty"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

type functionResponse struct {
	ID       string          `json:"id,omitempty"`
	Name     string          `json:"name"`
	Response json.RawMessage `json:"response"`
}

type functionDeclaration struct {
	Name        string         `json:"name"`
	Description string         `json:"description,omitempty"`
	Parameters  map[string]any `json:"parameters,omitempty"`
}

// synthPrefix marks call ids tavo made for calls Gemini sent without one.
const synthPrefix = "gcall_"

// generationConfigKeys are the GenerationConfig fields a --param may name;
// they belong inside generationConfig, not at the top of the body.
var generationConfigKeys = map[string]bool{
	"temperature": true, "topP": true, "topK": true, "candidateCount": true, "maxOutputTokens": true,
	"stopSequences": true, "presencePenalty": true, "frequencyPenalty": true, "seed": true,
	"responseMimeType": true, "responseSchema": true, "responseJsonSchema": true, "responseModalities": true,
	"responseLogprobs": true, "logprobs": true, "thinkingConfig": true, "mediaResolution": true,
	"speechConfig": true, "enableEnhancedCivicAnswers": true, "imageConfig": true,
}

// encodeRequest renders req as a GenerateContentRequest body. The model is
// in the URL, not here.
func encodeRequest(req *providers.Request) ([]byte, error) {
	contents, err := encodeContents(req.Messages)
	if err != nil {
		return nil, err
	}
	body := map[string]any{"contents": contents}
	if req.System != "" {
		sys := req.System
		body["systemInstruction"] = content{Parts: []part{{Text: &sys}}}
	}
	if len(req.Tools) > 0 {
		decls := make([]functionDeclaration, 0, len(req.Tools))
		for _, t := range req.Tools {
			params, err := toGeminiSchema(t.Parameters)
			if err != nil {
				return nil, fmt.Errorf("tool %q: %w", t.Name, err)
			}
			decls = append(decls, functionDeclaration{Name: t.Name, Description: t.Description, Parameters: params})
		}
		body["tools"] = []any{map[string]any{"functionDeclarations": decls}}
		if req.NoToolCalls {
			body["toolConfig"] = map[string]any{"functionCallingConfig": map[string]string{"mode": "NONE"}}
		}
	}
	gen := map[string]any{}
	if req.MaxOutputTokens > 0 {
		gen["maxOutputTokens"] = req.MaxOutputTokens
	}
	if s := req.Schema; s != nil {
		schema, err := toGeminiSchema(s.Schema)
		if err != nil {
			return nil, fmt.Errorf("output schema: %w", err)
		}
		gen["responseMimeType"] = "application/json"
		if schema != nil {
			gen["responseSchema"] = schema
		}
	}
	for k, v := range req.Params {
		switch {
		case k == "generationConfig":
			// An object adds to (and wins over) what the codec set; null
			// drops what the codec set.
			switch cfg := v.(type) {
			case nil:
				gen = map[string]any{}
			case map[string]any:
				for ck, cv := range cfg {
					gen[ck] = cv
				}
			default:
				body[k], gen = v, nil
			}
		case generationConfigKeys[k] && gen != nil:
			if v == nil {
				delete(gen, k)
			} else {
				gen[k] = v
			}
		case v == nil:
			delete(body, k)
		default:
			body[k] = v
		}
	}
	if len(gen) > 0 {
		body["generationConfig"] = gen
	}
	return json.Marshal(body)
}

// encodeContents converts the conversation and merges consecutive turns of
// one role.
func encodeContents(in []providers.Message) ([]content, error) {
	out := []content{}
	for i, m := range in {
		var role string
		var parts []part
		switch m.Role {
		case providers.RoleUser:
			role, parts = "user", userParts(m)
		case providers.RoleAssistant:
			role, parts = "model", modelParts(m)
		case providers.RoleTool:
			role, parts = "user", responseParts(m)
		default:
			return nil, fmt.Errorf("message %d has unknown role %q", i, m.Role)
		}
		if len(parts) == 0 {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Role == role {
			out[n-1].Parts = append(out[n-1].Parts, parts...)
			continue
		}
		out = append(out, content{Role: role, Parts: parts})
	}
	for i := range out {
		if out[i].Role == "user" {
			out[i].Parts = responsesFirst(out[i].Parts)
		}
	}
	return out, nil
}

// responsesFirst puts functionResponse parts before the rest of a user turn,
// so they answer the calls of the model turn before it.
func responsesFirst(parts []part) []part {
	out := make([]part, 0, len(parts))
	var rest []part
	for _, p := range parts {
		if p.FunctionResponse != nil {
			out = append(out, p)
		} else {
			rest = append(rest, p)
		}
	}
	return append(out, rest...)
}

func userParts(m providers.Message) []part {
	var parts []part
	for _, p := range m.Parts {
		switch {
		case p.Type == providers.PartText && p.Text != "":
			t := p.Text
			parts = append(parts, part{Text: &t})
		case p.Type == providers.PartImage && p.Image != nil:
			parts = append(parts, imagePart(p.Image))
		}
	}
	return parts
}

func imagePart(img *providers.Image) part {
	mime := img.MIMEType
	if len(img.Data) == 0 && img.URL != "" {
		return part{FileData: &fileData{MIMEType: mime, FileURI: img.URL}}
	}
	if mime == "" {
		mime = "image/png"
	}
	return part{InlineData: &blob{MIMEType: mime, Data: base64.StdEncoding.EncodeToString(img.Data)}}
}

// modelParts keeps the order Gemini produced. Reasoning of another protocol
// is dropped: its opaque data means nothing to Gemini.
func modelParts(m providers.Message) []part {
	var parts []part
	for _, p := range m.Parts {
		switch {
		case p.Type == providers.PartReasoning && p.Reasoning != nil:
			r := p.Reasoning
			if r.Protocol != providers.ProtocolGemini {
				continue
			}
			if r.Text != "" {
				t := r.Text
				parts = append(parts, part{Text: &t, Thought: true, ThoughtSignature: r.Signature})
				continue
			}
			if r.Signature == "" {
				continue
			}
			// A signature that came on a text part goes back on it.
			if n := len(parts); n > 0 && parts[n-1].Text != nil && !parts[n-1].Thought && parts[n-1].ThoughtSignature == "" {
				parts[n-1].ThoughtSignature = r.Signature
				continue
			}
			empty := ""
			parts = append(parts, part{Text: &empty, ThoughtSignature: r.Signature})
		case p.Type == providers.PartText && p.Text != "":
			t := p.Text
			parts = append(parts, part{Text: &t})
		case p.Type == providers.PartToolCall && p.ToolCall != nil:
			c := p.ToolCall
			parts = append(parts, part{
				FunctionCall:     &functionCall{ID: sentID(c.ID), Name: c.Name, Args: argsObject(c.Arguments)},
				ThoughtSignature: c.Signature,
			})
		}
	}
	return parts
}

func responseParts(m providers.Message) []part {
	var parts []part
	for _, p := range m.Parts {
		if p.Type != providers.PartToolResult || p.ToolResult == nil {
			continue
		}
		r := p.ToolResult
		parts = append(parts, part{FunctionResponse: &functionResponse{ID: sentID(r.CallID), Name: r.Name, Response: responseObject(r.Content)}})
	}
	return parts
}

// responseObject is a result as the object functionResponse.response must
// be: tavo's envelope is one already; anything else is wrapped as output.
func responseObject(content string) json.RawMessage {
	trimmed := strings.TrimSpace(content)
	if strings.HasPrefix(trimmed, "{") && json.Valid([]byte(trimmed)) {
		return json.RawMessage(trimmed)
	}
	b, _ := json.Marshal(map[string]string{"output": content})
	return b
}

// argsObject is a call's arguments as the object functionCall.args is;
// arguments that are not an object (a model's broken output) become {}.
func argsObject(args string) json.RawMessage {
	trimmed := strings.TrimSpace(args)
	if strings.HasPrefix(trimmed, "{") && json.Valid([]byte(trimmed)) {
		return json.RawMessage(trimmed)
	}
	return json.RawMessage("{}")
}

// sentID is the id to send for a call: none for ids tavo made up.
func sentID(id string) string {
	if strings.HasPrefix(id, synthPrefix) {
		return ""
	}
	return id
}
