package gemini

import (
	"testing"

	"github.com/tidwall/gjson"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/providertest"
)

// fullConversation has every kind of part, a tool loop with thoughts and
// signatures, and guidance right after the tool results.
func fullConversation() *providers.Request {
	question := providertest.PictureQuestion()
	question.Parts[2].Image.MIMEType = "image/jpeg"
	return &providers.Request{
		Model:  "gemini-2.5-flash",
		System: "You are terse.",
		Messages: []providers.Message{
			question,
			{Role: providers.RoleAssistant, Parts: []providers.Part{
				{Type: providers.PartReasoning, Reasoning: &providers.Reasoning{Protocol: providers.ProtocolGemini, Text: "Need the weather."}},
				{Type: providers.PartReasoning, Reasoning: &providers.Reasoning{Protocol: providers.ProtocolAnthropic, Text: "not mine", Signature: "sig"}},
				{Type: providers.PartText, Text: "Checking."},
				{Type: providers.PartToolCall, ToolCall: &providers.ToolCall{ID: "gcall_0000abcd_0", Name: "get_weather", Arguments: `{"location":"Boston"}`, Signature: "U0lHMQ=="}},
				{Type: providers.PartToolCall, ToolCall: &providers.ToolCall{ID: "call_from_gemini", Name: "get_weather", Arguments: ""}},
			}},
			{Role: providers.RoleTool, Parts: []providers.Part{
				{Type: providers.PartToolResult, ToolResult: &providers.ToolResult{CallID: "gcall_0000abcd_0", Name: "get_weather", Content: `{"ok":true,"result":"sunny"}`}},
				{Type: providers.PartToolResult, ToolResult: &providers.ToolResult{CallID: "call_from_gemini", Name: "get_weather", Content: `plain text`, IsError: true}},
			}},
			providertest.Text(providers.RoleUser, "Use metric units."),
			{Role: providers.RoleAssistant, Parts: []providers.Part{
				{Type: providers.PartText, Text: "A cat. Sunny, 21°C."},
				{Type: providers.PartReasoning, Reasoning: &providers.Reasoning{Protocol: providers.ProtocolGemini, Signature: "VEVYVA=="}},
			}},
			providertest.Text(providers.RoleUser, "Thanks"),
		},
		Tools:           []providers.ToolSpec{codec.WeatherTool(), {Name: "no_params", Description: "Takes nothing."}},
		Stream:          true,
		MaxOutputTokens: 256,
	}
}

func TestEncodeRequestShape(t *testing.T) {
	j := providertest.Encode(t, encodeRequest, fullConversation())
	providertest.CheckPaths(t, j, map[string]string{
		"systemInstruction.parts.0.text":                                     "You are terse.",
		"contents.#":                                                         "5",
		"contents.0.role":                                                    "user",
		"contents.0.parts.1.inlineData.mimeType":                             "image/png",
		"contents.0.parts.1.inlineData.data":                                 "iVBORw==",
		"contents.0.parts.2.fileData.fileUri":                                "https://example.com/cat.jpg",
		"contents.1.role":                                                    "model",
		"contents.1.parts.#":                                                 "4",
		"contents.1.parts.0.thought":                                         "true",
		"contents.1.parts.0.text":                                            "Need the weather.",
		"contents.1.parts.1.text":                                            "Checking.",
		"contents.1.parts.2.functionCall.name":                               "get_weather",
		"contents.1.parts.2.functionCall.args.location":                      "Boston",
		"contents.1.parts.2.thoughtSignature":                                "U0lHMQ==",
		"contents.1.parts.3.functionCall.id":                                 "call_from_gemini",
		"contents.1.parts.3.functionCall.args":                               "{}",
		"contents.2.role":                                                    "user",
		"contents.2.parts.#":                                                 "3",
		"contents.2.parts.0.functionResponse.name":                           "get_weather",
		"contents.2.parts.0.functionResponse.response.ok":                    "true",
		"contents.2.parts.0.functionResponse.response.result":                "sunny",
		"contents.2.parts.1.functionResponse.id":                             "call_from_gemini",
		"contents.2.parts.1.functionResponse.response.output":                "plain text",
		"contents.2.parts.2.text":                                            "Use metric units.",
		"contents.3.role":                                                    "model",
		"contents.3.parts.#":                                                 "1",
		"contents.3.parts.0.text":                                            "A cat. Sunny, 21°C.",
		"contents.3.parts.0.thoughtSignature":                                "VEVYVA==",
		"contents.4.parts.0.text":                                            "Thanks",
		"tools.0.functionDeclarations.0.name":                                "get_weather",
		"tools.0.functionDeclarations.0.parameters.type":                     "OBJECT",
		"tools.0.functionDeclarations.0.parameters.properties.location.type": "STRING",
		"tools.0.functionDeclarations.1.name":                                "no_params",
		"generationConfig.maxOutputTokens":                                   "256",
	})
	for _, absent := range []string{
		"model", "stream",
		"contents.1.parts.2.functionCall.id", "contents.2.parts.0.functionResponse.id", // made-up ids stay home
		"tools.0.functionDeclarations.1.parameters", // no properties: no parameters
		"contents.1.parts.1.thoughtSignature",
	} {
		if j.Get(absent).Exists() {
			t.Errorf("%s sent: %s", absent, j.Get(absent).Raw)
		}
	}
}

func TestEncodeRequestOptions(t *testing.T) {
	req := codec.Request(false)
	req.Schema = &providers.OutputSchema{Name: "answer", Schema: []byte(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}`)}
	req.Params = map[string]any{
		"temperature":    0.2,
		"thinkingConfig": map[string]any{"includeThoughts": true, "thinkingBudget": 1024},
		"safetySettings": []any{map[string]any{"category": "HARM_CATEGORY_HATE_SPEECH", "threshold": "BLOCK_NONE"}},
	}
	j := providertest.Encode(t, encodeRequest, req)
	providertest.CheckPaths(t, j, map[string]string{
		"generationConfig.temperature":                   "0.2",
		"generationConfig.thinkingConfig.thinkingBudget": "1024",
		"generationConfig.responseMimeType":              "application/json",
		"generationConfig.responseSchema.type":           "OBJECT",
		"generationConfig.responseSchema.required.0":     "city",
		"safetySettings.0.threshold":                     "BLOCK_NONE",
	})
	if j.Get("temperature").Exists() || j.Get("generationConfig.responseSchema.additionalProperties").Exists() {
		t.Errorf("misplaced or untranslated: %s", j.Raw)
	}
	req.Params = map[string]any{"generationConfig": nil}
	body, _ := encodeRequest(req)
	if gjson.GetBytes(body, "generationConfig").Exists() {
		t.Errorf("generationConfig: null kept the codec's: %s", body)
	}
}

func TestEncodeRequestErrors(t *testing.T) {
	providertest.EncodeRequestErrors(t, encodeRequest)
}

// TestRequestsMatchOfficialSchema validates what went over the wire against
// GenerateContentRequest.
func TestRequestsMatchOfficialSchema(t *testing.T) {
	withOptions := codec.Request(false)
	withOptions.Schema = &providers.OutputSchema{Name: "a", Schema: []byte(`{"type":"object","properties":{"n":{"type":"integer","minimum":1}}}`)}
	withOptions.Params = map[string]any{"temperature": 0.5, "thinkingConfig": map[string]any{"includeThoughts": true}}
	for name, req := range map[string]*providers.Request{
		"full conversation": fullConversation(),
		"options":           withOptions,
	} {
		t.Run(name, func(t *testing.T) {
			body := codec.Sent(t, req).Body
			providertest.MatchesOfficialSchema(t, providers.ProtocolGemini, body)
			gjson.GetBytes(body, "tools.0.functionDeclarations").ForEach(func(_, d gjson.Result) bool {
				if p := d.Get("parameters"); p.Exists() {
					var m map[string]any
					if err := jsonUnmarshal(p.Raw, &m); err != nil {
						t.Fatal(err)
					}
					checkGeminiSubset(t, d.Get("name").String(), m)
				}
				return true
			})
		})
	}
}
