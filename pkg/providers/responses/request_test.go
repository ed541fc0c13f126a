package responses

import (
	"testing"

	"github.com/tidwall/gjson"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/providertest"
)

// fullConversation has every kind of part the canonical model carries.
func fullConversation() *providers.Request {
	return &providers.Request{
		Model:  "gpt-5",
		System: "You are terse.",
		Messages: []providers.Message{
			providertest.PictureQuestion(),
			{Role: providers.RoleAssistant, Parts: []providers.Part{
				{Type: providers.PartReasoning, Reasoning: &providers.Reasoning{Protocol: providers.ProtocolOpenAIResponses, ID: "rs_1", Text: "Need the weather.", Encrypted: "gAAAA-1"}},
				{Type: providers.PartReasoning, Reasoning: &providers.Reasoning{Protocol: providers.ProtocolOpenAIResponses, ID: "rs_stored", Text: "no encrypted content"}},
				{Type: providers.PartReasoning, Reasoning: &providers.Reasoning{Protocol: providers.ProtocolAnthropic, Text: "not mine", Signature: "sig"}},
				{Type: providers.PartText, Text: "Checking."},
				{Type: providers.PartToolCall, ToolCall: &providers.ToolCall{ID: "call_1", Name: "get_current_weather", Arguments: `{"location":"Boston"}`}},
				{Type: providers.PartToolCall, ToolCall: &providers.ToolCall{ID: "call_2", Name: "get_current_weather", Arguments: ""}},
			}},
			{Role: providers.RoleTool, Parts: []providers.Part{
				{Type: providers.PartToolResult, ToolResult: &providers.ToolResult{CallID: "call_1", Name: "get_current_weather", Content: `{"ok":true,"result":"sunny"}`}},
				{Type: providers.PartToolResult, ToolResult: &providers.ToolResult{CallID: "call_2", Name: "get_current_weather", Content: `{"ok":false,"error":"bad"}`, IsError: true}},
			}},
			providertest.Text(providers.RoleUser, "Use metric units."),
			{Role: providers.RoleAssistant, Parts: []providers.Part{
				{Type: providers.PartReasoning, Reasoning: &providers.Reasoning{Protocol: providers.ProtocolOpenAIResponses, ID: "rs_2", Encrypted: "gAAAA-2"}},
				{Type: providers.PartText, Text: "A cat. Sunny, 21°C."},
			}},
			providertest.Text(providers.RoleUser, "Thanks"),
		},
		Tools:           []providers.ToolSpec{codec.WeatherTool(), {Name: "no_params"}},
		Stream:          true,
		MaxOutputTokens: 256,
	}
}

func TestEncodeRequestShape(t *testing.T) {
	j := providertest.Encode(t, encodeRequest, fullConversation())
	providertest.CheckPaths(t, j, map[string]string{
		"model":                         "gpt-5",
		"instructions":                  "You are terse.",
		"store":                         "false",
		"include.0":                     "reasoning.encrypted_content",
		"stream":                        "true",
		"max_output_tokens":             "256",
		"input.#":                       "11",
		"input.0.role":                  "user",
		"input.0.content.0.type":        "input_text",
		"input.0.content.1.image_url":   "data:image/png;base64,iVBORw==",
		"input.0.content.2.image_url":   "https://example.com/cat.jpg",
		"input.1.type":                  "reasoning",
		"input.1.id":                    "rs_1",
		"input.1.summary.0.type":        "summary_text",
		"input.1.summary.0.text":        "Need the weather.",
		"input.1.encrypted_content":     "gAAAA-1",
		"input.2.role":                  "assistant",
		"input.2.content":               "Checking.",
		"input.3.type":                  "function_call",
		"input.3.call_id":               "call_1",
		"input.3.name":                  "get_current_weather",
		"input.3.arguments":             `{"location":"Boston"}`,
		"input.4.arguments":             `{}`,
		"input.5.type":                  "function_call_output",
		"input.5.call_id":               "call_1",
		"input.5.output":                `{"ok":true,"result":"sunny"}`,
		"input.6.call_id":               "call_2",
		"input.7.content":               "Use metric units.",
		"input.8.id":                    "rs_2",
		"input.8.summary.#":             "0",
		"input.9.content":               "A cat. Sunny, 21°C.",
		"input.10.content":              "Thanks",
		"tools.0.type":                  "function",
		"tools.0.name":                  "get_current_weather",
		"tools.0.strict":                "false",
		"tools.0.parameters.required.0": "location",
		"tools.1.parameters.type":       "object",
	})
	if j.Get("input.3.id").Exists() || j.Get("messages").Exists() || j.Get("text").Exists() {
		t.Errorf("unexpected fields: %s", j.Raw)
	}
}

func TestTrailingReasoningLeftOut(t *testing.T) {
	items := assistantItems(providers.Message{Role: providers.RoleAssistant, Parts: []providers.Part{
		{Type: providers.PartReasoning, Reasoning: &providers.Reasoning{Protocol: providers.ProtocolOpenAIResponses, ID: "rs_1", Encrypted: "e1"}},
		{Type: providers.PartText, Text: "partial"},
		{Type: providers.PartReasoning, Reasoning: &providers.Reasoning{Protocol: providers.ProtocolOpenAIResponses, ID: "rs_2", Encrypted: "e2"}},
	}})
	if len(items) != 2 || items[0].(reasoningItem).ID != "rs_1" {
		t.Fatalf("items %+v, want rs_1 and the text only", items)
	}
}

func TestEncodeRequestOptions(t *testing.T) {
	req := codec.Request(false)
	req.Model = "gpt-4.1-mini"
	req.Schema = &providers.OutputSchema{Name: "city answer", Schema: []byte(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}`)}
	req.Params = map[string]any{"reasoning": map[string]any{"effort": "low", "summary": "auto"}, "store": true}
	j := providertest.Encode(t, encodeRequest, req)
	providertest.CheckPaths(t, j, map[string]string{
		"text.format.type":              "json_schema",
		"text.format.name":              "city_answer",
		"text.format.strict":            "true",
		"text.format.schema.required.0": "city",
		"reasoning.summary":             "auto",
		"store":                         "true",
		"input.0.content":               "What is the weather in Boston?",
	})
	if j.Get("include").Exists() || j.Get("stream").Exists() || j.Get("max_output_tokens").Exists() {
		t.Errorf("include asked of a model without reasoning, or stream/limit sent unasked: %s", j.Raw)
	}
}

func TestEncryptedReasoningByModel(t *testing.T) {
	for model, want := range map[string]bool{
		"gpt-5": true, "o3": true, "o4-mini": true, "gpt-5.1-codex": true, "my-azure-deployment": true,
		"gpt-4o": false, "gpt-4.1": false, "GPT-4o-mini": false, "gpt-3.5-turbo": false, "chatgpt-4o-latest": false, "gpt-5-chat-latest": false, "gpt-5.1-chat-latest": false,
	} {
		body, err := encodeRequest(&providers.Request{Model: model})
		if err != nil {
			t.Fatal(err)
		}
		if got := gjson.GetBytes(body, "include").Exists(); got != want {
			t.Errorf("%s: include sent %v, want %v", model, got, want)
		}
	}
}

func TestEncodeRequestErrors(t *testing.T) {
	providertest.EncodeRequestErrors(t, encodeRequest)
}

// TestRequestsMatchOfficialSchema validates what went over the wire against
// CreateResponse. A user message with content parts (images) is left out:
// it fits both EasyInputMessage and InputMessage, which the spec tells apart
// with an OpenAPI discriminator that a JSON Schema validator does not read,
// so the validator reports a oneOf with two matches (TestEncodeRequestShape
// checks that message instead).
func TestRequestsMatchOfficialSchema(t *testing.T) {
	withoutImages := func(r *providers.Request) *providers.Request {
		r.Messages[0] = providertest.Text(providers.RoleUser, "What is the weather?")
		return r
	}
	noTools := withoutImages(fullConversation())
	noTools.Tools = nil
	withOptions := codec.Request(false)
	withOptions.Schema = &providers.OutputSchema{Name: "a", Schema: []byte(`{"type":"object","properties":{}}`)}
	withOptions.Params = map[string]any{"temperature": 0.5, "reasoning": map[string]any{"effort": "low"}}
	for name, req := range map[string]*providers.Request{
		"full conversation": withoutImages(fullConversation()),
		"without tools":     noTools,
		"options":           withOptions,
	} {
		t.Run(name, func(t *testing.T) {
			body := codec.Sent(t, req).Body
			providertest.MatchesOfficialSchema(t, providers.ProtocolOpenAIResponses, body)
		})
	}
}

// Images that follow tool results (what tools produced, SPEC §11) go into
// the last function_call_output as content parts, after its text; text
// alone after tool results stays a user message.
func TestToolImagesFoldIntoFunctionOutput(t *testing.T) {
	req := &providers.Request{Model: "gpt-5", Messages: []providers.Message{
		providertest.Text(providers.RoleUser, "Look"),
		{Role: providers.RoleAssistant, Parts: []providers.Part{
			{Type: providers.PartToolCall, ToolCall: &providers.ToolCall{ID: "c1", Name: "tavo_read", Arguments: `{}`}}}},
		{Role: providers.RoleTool, Parts: []providers.Part{
			{Type: providers.PartToolResult, ToolResult: &providers.ToolResult{CallID: "c1", Name: "tavo_read", Content: `{"ok":true}`}}}},
		{Role: providers.RoleUser, Parts: []providers.Part{
			{Type: providers.PartText, Text: "[attachment: asset://a; image/png; 4 bytes]"},
			{Type: providers.PartImage, Image: &providers.Image{MIMEType: "image/png", Data: []byte{0x89, 'P', 'N', 'G'}}}}},
		providertest.Text(providers.RoleUser, "More"),
	}}
	j := providertest.Encode(t, encodeRequest, req)
	providertest.CheckPaths(t, j, map[string]string{
		"input.#":                    "4",
		"input.2.type":               "function_call_output",
		"input.2.output.0.type":      "input_text",
		"input.2.output.0.text":      `{"ok":true}`,
		"input.2.output.1.text":      "[attachment: asset://a; image/png; 4 bytes]",
		"input.2.output.2.type":      "input_image",
		"input.2.output.2.image_url": "data:image/png;base64,iVBORw==",
		"input.3.role":               "user",
		"input.3.content":            "More",
	})
}
