package openai

import (
	"context"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/providertest"
)

// fullConversation has every kind of part the canonical model carries.
func fullConversation() *providers.Request {
	return &providers.Request{
		Model:  "gpt-4.1",
		System: "You are terse.",
		Messages: []providers.Message{
			providertest.PictureQuestion(),
			{Role: providers.RoleAssistant, Parts: []providers.Part{
				{Type: providers.PartReasoning, Reasoning: &providers.Reasoning{Protocol: providers.ProtocolOpenAI, Text: "Need the weather."}},
				{Type: providers.PartReasoning, Reasoning: &providers.Reasoning{Protocol: providers.ProtocolAnthropic, Text: "not mine", Signature: "sig"}},
				{Type: providers.PartToolCall, ToolCall: &providers.ToolCall{ID: "call_1", Name: "get_current_weather", Arguments: `{"location":"Boston"}`}},
				{Type: providers.PartToolCall, ToolCall: &providers.ToolCall{ID: "call_2", Name: "get_current_weather", Arguments: ""}},
			}},
			{Role: providers.RoleTool, Parts: []providers.Part{
				{Type: providers.PartToolResult, ToolResult: &providers.ToolResult{CallID: "call_1", Name: "get_current_weather", Content: `{"ok":true,"result":"sunny"}`}},
				{Type: providers.PartToolResult, ToolResult: &providers.ToolResult{CallID: "call_2", Name: "get_current_weather", Content: `{"ok":false,"error":"bad"}`, IsError: true}},
			}},
			{Role: providers.RoleAssistant, Parts: []providers.Part{{Type: providers.PartText, Text: "A cat. Sunny."}}},
			{Role: providers.RoleUser, Parts: []providers.Part{{Type: providers.PartText, Text: "Thanks"}}},
		},
		Tools:           []providers.ToolSpec{codec.WeatherTool(), {Name: "no_params", Description: ""}},
		Stream:          true,
		MaxOutputTokens: 256,
	}
}

func TestEncodeRequestShape(t *testing.T) {
	j := providertest.Encode(t, encodeRequest, fullConversation())
	providertest.CheckPaths(t, j, map[string]string{
		"model":                                      "gpt-4.1",
		"messages.0.role":                            "system",
		"messages.0.content":                         "You are terse.",
		"messages.1.content.0.type":                  "text",
		"messages.1.content.1.image_url.url":         "data:image/png;base64,iVBORw==",
		"messages.1.content.2.image_url.url":         "https://example.com/cat.jpg",
		"messages.2.role":                            "assistant",
		"messages.2.content":                         "", // null, checked below
		"messages.2.reasoning_content":               "Need the weather.",
		"messages.2.tool_calls.0.id":                 "call_1",
		"messages.2.tool_calls.0.type":               "function",
		"messages.2.tool_calls.0.function.name":      "get_current_weather",
		"messages.2.tool_calls.0.function.arguments": `{"location":"Boston"}`,
		"messages.2.tool_calls.1.function.arguments": `{}`,
		"messages.3.role":                            "tool",
		"messages.3.tool_call_id":                    "call_1",
		"messages.3.content":                         `{"ok":true,"result":"sunny"}`,
		"messages.4.tool_call_id":                    "call_2",
		"messages.5.content":                         "A cat. Sunny.",
		"messages.6.content":                         "Thanks",
		"tools.0.type":                               "function",
		"tools.0.function.name":                      "get_current_weather",
		"tools.0.function.parameters.required.0":     "location",
		"tools.1.function.parameters.type":           "object",
		"stream":                                     "true",
		"stream_options.include_usage":               "true",
		"max_completion_tokens":                      "256",
	})
	if j.Get("messages.2.content").Type != gjson.Null {
		t.Errorf("assistant content with only tool calls = %s, want null", j.Get("messages.2.content").Raw)
	}
	if j.Get("messages.5.reasoning_content").Exists() || j.Get("messages.5.tool_calls").Exists() {
		t.Errorf("plain assistant message has extra fields: %s", j.Get("messages.5").Raw)
	}
	if j.Get("tools.1.function.description").Exists() {
		t.Errorf("empty description sent")
	}
	if n := len(j.Get("messages").Array()); n != 7 {
		t.Errorf("%d messages, want 7", n)
	}
}

func TestEncodeRequestMinimal(t *testing.T) {
	body, err := encodeRequest(&providers.Request{Model: "m", Messages: []providers.Message{{Role: providers.RoleUser, Parts: []providers.Part{{Type: providers.PartText, Text: "hi"}}}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, absent := range []string{"tools", "tool_choice", "stream", "stream_options", "max_completion_tokens", "max_tokens"} {
		if gjson.GetBytes(body, absent).Exists() {
			t.Errorf("%s sent in a minimal request: %s", absent, body)
		}
	}
	if gjson.GetBytes(body, "messages.0.role").String() != "user" || gjson.GetBytes(body, "messages.#").Int() != 1 {
		t.Errorf("body %s", body)
	}
}

func TestEncodeRequestParams(t *testing.T) {
	req := codec.Request(true)
	req.MaxOutputTokens = 10
	req.Params = map[string]any{"temperature": 0.2, "max_completion_tokens": nil, "max_tokens": 10, "stream_options": map[string]any{"include_usage": false}}
	j := providertest.Encode(t, encodeRequest, req)
	if j.Get("temperature").Float() != 0.2 || j.Get("max_completion_tokens").Exists() || j.Get("max_tokens").Int() != 10 || j.Get("stream_options.include_usage").Bool() {
		t.Fatalf("params not merged over the body: %s", j.Raw)
	}
}

func TestEncodeRequestErrors(t *testing.T) {
	if _, err := encodeRequest(&providers.Request{Model: "m", Messages: []providers.Message{{Role: "robot"}}}); err == nil {
		t.Error("unknown role accepted")
	}
	if _, err := encodeRequest(&providers.Request{Model: "m", Tools: []providers.ToolSpec{{Name: "t", Parameters: []byte("{")}}}); err == nil {
		t.Error("broken tool schema accepted")
	}
}

// TestRequestsMatchOfficialSchema sends each kind of request through the
// fake and validates what went over the wire against CreateChatCompletionRequest.
func TestRequestsMatchOfficialSchema(t *testing.T) {
	noTools := fullConversation()
	noTools.Tools = nil
	plain := codec.Request(false)
	plain.Params = map[string]any{"temperature": 0.5}
	for name, req := range map[string]*providers.Request{
		"full conversation": fullConversation(),
		"without tools":     noTools,
		"plain":             plain,
	} {
		t.Run(name, func(t *testing.T) {
			body := codec.Sent(t, req).Body
			providertest.MatchesOfficialSchema(t, providers.ProtocolOpenAI, body)
		})
	}
}

func TestHeadersAndURL(t *testing.T) {
	providertest.HeadersAndURL(t, codec, []providertest.HeaderCase{
		{Name: "bearer", Path: "/chat/completions", Headers: map[string]string{"Authorization": "Bearer " + testKey, "Content-Type": "application/json", "Accept": "text/event-stream"}},
		{Name: "azure", Config: func(c *providers.Config) {
			c.BaseURL += "/openai/deployments/gpt4o/"
			c.AuthHeader = "api-key"
			c.Query = map[string]string{"api-version": "2024-10-21"}
			c.Headers = map[string]string{"X-Extra": "1"}
		}, Path: "/openai/deployments/gpt4o/chat/completions", Query: "api-version=2024-10-21", Headers: map[string]string{"Api-Key": testKey, "X-Extra": "1"}, Absent: []string{"Authorization"}},
		{Name: "no key", Config: func(c *providers.Config) { c.APIKey = ""; c.BaseURL += "/v1" }, Path: "/v1/chat/completions", Absent: []string{"Authorization", "Api-Key"}},
	})
}

func TestEndpoint(t *testing.T) {
	for _, tt := range []struct {
		base  string
		query map[string]string
		want  string
	}{
		{"", nil, "https://api.openai.com/v1/chat/completions"},
		{"http://localhost:11434/v1/", nil, "http://localhost:11434/v1/chat/completions"},
		{"https://x.example/v1?a=1", map[string]string{"b": "2"}, "https://x.example/v1/chat/completions?a=1&b=2"},
	} {
		got, err := endpoint(tt.base, tt.query)
		if err != nil || got != tt.want {
			t.Errorf("endpoint(%q) = %q, %v; want %q", tt.base, got, err, tt.want)
		}
	}
	if _, err := endpoint("localhost:8080", nil); err == nil {
		t.Error("base without scheme accepted")
	}
	c := New(providers.Config{BaseURL: "::bad"})
	_, err := c.Complete(context.Background(), codec.Request(false), nil)
	providertest.MustError(t, err, providers.ErrProviderError, testKey)
}
