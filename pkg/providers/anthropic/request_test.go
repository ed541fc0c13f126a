package anthropic

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/fake"
	"github.com/tavo-cli/tavo/pkg/providers/providertest"
)

// fullConversation has every kind of part the canonical model carries, a
// tool loop with thinking, and guidance right after the tool results.
func fullConversation() *providers.Request {
	return &providers.Request{
		Model:  "claude-sonnet-4-5",
		System: "You are terse.",
		Messages: []providers.Message{
			providertest.PictureQuestion(),
			{Role: providers.RoleAssistant, Parts: []providers.Part{
				{Type: providers.PartReasoning, Reasoning: &providers.Reasoning{Protocol: providers.ProtocolAnthropic, Text: "Need the weather.", Signature: "sig-1"}},
				{Type: providers.PartReasoning, Reasoning: &providers.Reasoning{Protocol: providers.ProtocolAnthropic, Redacted: "EmwKAhgBEgy3va3pzix"}},
				{Type: providers.PartReasoning, Reasoning: &providers.Reasoning{Protocol: providers.ProtocolOpenAI, Text: "not mine"}},
				{Type: providers.PartReasoning, Reasoning: &providers.Reasoning{Protocol: providers.ProtocolAnthropic, Text: "unsigned, cannot be sent"}},
				{Type: providers.PartText, Text: "Checking."},
				{Type: providers.PartToolCall, ToolCall: &providers.ToolCall{ID: "toolu_1", Name: "get_weather", Arguments: `{"location":"Boston"}`}},
				{Type: providers.PartToolCall, ToolCall: &providers.ToolCall{ID: "call:2/x", Name: "get_weather", Arguments: "not json"}},
			}},
			{Role: providers.RoleTool, Parts: []providers.Part{
				{Type: providers.PartToolResult, ToolResult: &providers.ToolResult{CallID: "toolu_1", Name: "get_weather", Content: `{"ok":true,"result":"sunny"}`}},
				{Type: providers.PartToolResult, ToolResult: &providers.ToolResult{CallID: "call:2/x", Name: "get_weather", Content: `{"ok":false,"error":"bad"}`, IsError: true}},
			}},
			providertest.Text(providers.RoleUser, "Use metric units."),
			{Role: providers.RoleAssistant, Parts: []providers.Part{{Type: providers.PartText, Text: ""}}},
			{Role: providers.RoleAssistant, Parts: []providers.Part{{Type: providers.PartText, Text: "A cat. Sunny, 21°C."}}},
			providertest.Text(providers.RoleUser, "Thanks"),
		},
		Tools:  []providers.ToolSpec{codec.WeatherTool(), {Name: "no_params"}},
		Stream: true,
	}
}

func TestEncodeRequestShape(t *testing.T) {
	j := providertest.Encode(t, encodeRequest, fullConversation())
	providertest.CheckPaths(t, j, map[string]string{
		"model":                                  "claude-sonnet-4-5",
		"max_tokens":                             "8192",
		"system":                                 "You are terse.",
		"stream":                                 "true",
		"messages.#":                             "5",
		"messages.0.role":                        "user",
		"messages.0.content.0.text":              "What is in this picture, and the weather?",
		"messages.0.content.1.source.type":       "base64",
		"messages.0.content.1.source.data":       "iVBORw==",
		"messages.0.content.1.source.media_type": "image/png",
		"messages.0.content.2.source.url":        "https://example.com/cat.jpg",
		"messages.1.role":                        "assistant",
		"messages.1.content.#":                   "5",
		"messages.1.content.0.type":              "thinking",
		"messages.1.content.0.thinking":          "Need the weather.",
		"messages.1.content.0.signature":         "sig-1",
		"messages.1.content.1.type":              "redacted_thinking",
		"messages.1.content.1.data":              "EmwKAhgBEgy3va3pzix",
		"messages.1.content.2.text":              "Checking.",
		"messages.1.content.3.type":              "tool_use",
		"messages.1.content.3.id":                "toolu_1",
		"messages.1.content.3.input.location":    "Boston",
		"messages.1.content.4.id":                "call_2_x",
		"messages.1.content.4.input":             "{}",
		// Tool results and the guidance that followed them share one user turn,
		// results first.
		"messages.2.role":                  "user",
		"messages.2.content.#":             "3",
		"messages.2.content.0.type":        "tool_result",
		"messages.2.content.0.tool_use_id": "toolu_1",
		"messages.2.content.0.content":     `{"ok":true,"result":"sunny"}`,
		"messages.2.content.1.tool_use_id": "call_2_x",
		"messages.2.content.1.is_error":    "true",
		"messages.2.content.2.text":        "Use metric units.",
		"messages.3.role":                  "assistant",
		"messages.3.content.#":             "1",
		"messages.3.content.0.text":        "A cat. Sunny, 21°C.",
		"messages.4.content.0.text":        "Thanks",
		"tools.0.name":                     "get_weather",
		"tools.0.input_schema.required.0":  "location",
		"tools.1.input_schema.type":        "object",
	})
	if j.Get("messages.2.content.0.is_error").Exists() || j.Get("tools.1.description").Exists() {
		t.Errorf("false is_error or empty description sent: %s", j.Raw)
	}
	for _, absent := range []string{"output_config", "thinking", "tool_choice"} {
		if j.Get(absent).Exists() {
			t.Errorf("%s sent unasked", absent)
		}
	}
}

func TestEncodeRequestOptions(t *testing.T) {
	req := codec.Request(false)
	req.MaxOutputTokens = 3000
	req.Schema = &providers.OutputSchema{Name: "answer", Schema: []byte(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}`)}
	req.Params = map[string]any{"temperature": 0.2, "thinking": map[string]any{"type": "enabled", "budget_tokens": 1024}, "system": nil}
	j := providertest.Encode(t, encodeRequest, req)
	if j.Get("max_tokens").Int() != 3000 || j.Get("temperature").Float() != 0.2 || j.Get("thinking.budget_tokens").Int() != 1024 || j.Get("system").Exists() || j.Get("stream").Exists() {
		t.Fatalf("options not applied: %s", j.Raw)
	}
	if j.Get("output_config.format.type").String() != "json_schema" || j.Get("output_config.format.schema.required.0").String() != "city" {
		t.Fatalf("schema not sent as output_config.format: %s", j.Raw)
	}
}

func TestMaxTokensAboveThinkingBudget(t *testing.T) {
	for _, tt := range []struct {
		name   string
		limit  int
		params map[string]any
		want   int64
	}{
		{"no thinking", 0, nil, DefaultMaxTokens},
		{"small budget gets room for the answer", 0, map[string]any{"thinking": map[string]any{"type": "enabled", "budget_tokens": 1024}}, 1024 + DefaultMaxTokens},
		{"large budget", 0, map[string]any{"thinking": map[string]any{"type": "enabled", "budget_tokens": 16000.0}}, 16000 + DefaultMaxTokens},
		{"limit above the budget is the whole cap", 20000, map[string]any{"thinking": map[string]any{"type": "enabled", "budget_tokens": 16000}}, 20000},
		{"explicit param wins", 0, map[string]any{"max_tokens": 17000, "thinking": map[string]any{"type": "enabled", "budget_tokens": 16000}}, 17000},
		{"disabled thinking", 0, map[string]any{"thinking": map[string]any{"type": "disabled"}}, DefaultMaxTokens},
		{"garbage budget", 0, map[string]any{"thinking": "on"}, DefaultMaxTokens},
	} {
		req := codec.Request(false)
		req.MaxOutputTokens, req.Params = tt.limit, tt.params
		body, err := encodeRequest(req)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := gjson.GetBytes(body, "max_tokens").Int(); got != tt.want {
			t.Errorf("%s: max_tokens %d, want %d", tt.name, got, tt.want)
		}
		if tt.name == "garbage budget" {
			continue
		}
		if err := fake.ValidateRequest(providers.ProtocolAnthropic, body); err != nil && !errors.Is(err, fake.ErrNoFixtures) {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}

// TestImpossibleThinkingBudgetRefused pins issue 12: a limit at or below the
// budget (the API's 400) is refused before sending, as a usage error.
func TestImpossibleThinkingBudgetRefused(t *testing.T) {
	for _, tt := range []struct {
		name   string
		limit  int
		params map[string]any
		want   string
	}{
		{"limit below budget", 4000, map[string]any{"thinking": map[string]any{"type": "enabled", "budget_tokens": 16000}}, "--max-output-tokens 4000 must be above the thinking budget 16000"},
		{"limit equal to budget", 2048, map[string]any{"thinking": map[string]any{"type": "enabled", "budget_tokens": 2048}}, "--max-output-tokens 2048"},
		{"param below budget", 0, map[string]any{"max_tokens": 100, "thinking": map[string]any{"type": "enabled", "budget_tokens": 16000}}, "--param max_tokens=100"},
		{"budget too small", 0, map[string]any{"thinking": map[string]any{"type": "enabled", "budget_tokens": 10}}, "at least 1024"},
	} {
		req := codec.Request(false)
		req.MaxOutputTokens, req.Params = tt.limit, tt.params
		_, err := encodeRequest(req)
		if !errors.Is(err, providers.ErrInvalidRequest) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want ErrInvalidRequest naming %q", tt.name, err, tt.want)
		}
		c := New(providers.Config{BaseURL: "http://127.0.0.1:1", APIKey: "k"})
		if err := providers.CheckRequest(c, req); !errors.Is(err, providers.ErrInvalidRequest) {
			t.Errorf("%s: CheckRequest = %v", tt.name, err)
		}
		// Complete refuses it without sending anything and without retrying.
		_, err = c.Complete(context.Background(), req, nil)
		if pe := providers.AsError(err); !errors.Is(pe, providers.ErrInvalidRequest) || providers.Retryable(pe) {
			t.Errorf("%s: Complete = %v", tt.name, err)
		}
	}
}

func TestEncodeRequestErrors(t *testing.T) {
	providertest.EncodeRequestErrors(t, encodeRequest)
}

func TestWireID(t *testing.T) {
	for in, want := range map[string]string{"toolu_01A": "toolu_01A", "call:1": "call_1", "": "toolu_none", "a-b_c": "a-b_c", "é": "__"} {
		if got := wireID(in); got != want {
			t.Errorf("wireID(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRequestsMatchOfficialSchema sends each kind of request through the
// fake and validates what went over the wire against CreateMessageParams.
func TestRequestsMatchOfficialSchema(t *testing.T) {
	noTools := fullConversation()
	noTools.Tools = nil
	withOptions := codec.Request(false)
	withOptions.Schema = &providers.OutputSchema{Name: "a", Schema: []byte(`{"type":"object","properties":{},"additionalProperties":false}`)}
	withOptions.Params = map[string]any{"temperature": 0.5, "thinking": map[string]any{"type": "enabled", "budget_tokens": 1024}}
	for name, req := range map[string]*providers.Request{
		"full conversation": fullConversation(),
		"without tools":     noTools,
		"options":           withOptions,
	} {
		t.Run(name, func(t *testing.T) {
			body := codec.Sent(t, req).Body
			providertest.MatchesOfficialSchema(t, providers.ProtocolAnthropic, body)
		})
	}
}
