package anthropic

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/fake"
	"github.com/tavo-cli/tavo/pkg/providers/providertest"
)

var _ providers.Provider = (*Client)(nil)

func TestProtocolAndChain(t *testing.T) {
	c := New(providers.Config{})
	if c.Protocol() != providers.ProtocolAnthropic || !c.RequiresActiveChain() {
		t.Fatalf("protocol %q, requires chain %v", c.Protocol(), c.RequiresActiveChain())
	}
}

const sfThinking = "The user wants the weather in San Francisco. I should call get_weather with the location."

var thinking27 = "Let me solve this step by step:\n\n1. First break down 27 * 453\n2. 453 = 400 + 50 + 3\n3. 27 * 400 = 10,800\n4. 27 * 50 = 1,350\n5. 27 * 3 = 81\n6. 10,800 + 1,350 + 81 = 12,231"

func TestFixtureScenarios(t *testing.T) {
	tests := []struct {
		fixture   string
		stream    bool
		text      string
		deltas    []string
		reasoning []providers.Reasoning
		calls     []providers.ToolCall
		finish    providers.FinishReason
		usage     providers.Usage
		model     string
	}{
		{fixture: "anthropic/text.json.http", text: "Hi! My name is Claude.", finish: providers.FinishStop,
			usage: providers.Usage{InputTokens: 2095, OutputTokens: 503}, model: "claude-sonnet-4-5-20250929"},
		{fixture: "anthropic/text.stream.http", stream: true, text: "Hello!", deltas: []string{"Hello", "!"}, finish: providers.FinishStop,
			usage: providers.Usage{InputTokens: 25, OutputTokens: 15}, model: "claude-opus-4-1-20250805"},
		{fixture: "anthropic/thinking.stream.http", stream: true, text: "27 * 453 = 12,231", deltas: []string{"27 * 453 = 12,231"},
			reasoning: []providers.Reasoning{{Protocol: providers.ProtocolAnthropic, Text: thinking27, Signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds..."}},
			finish:    providers.FinishStop, model: "claude-opus-4-1-20250805"},
		{fixture: "anthropic/thinking_tool_use.json.http",
			reasoning: []providers.Reasoning{{Protocol: providers.ProtocolAnthropic, Text: sfThinking, Signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYdsHarnessSig0001"}},
			calls:     []providers.ToolCall{{ID: "toolu_01A09q90qw90lq917835lq9", Name: "get_weather", Arguments: `{"location":"San Francisco, CA","unit":"celsius"}`}},
			finish:    providers.FinishToolCalls, usage: providers.Usage{InputTokens: 412, OutputTokens: 156}, model: "claude-sonnet-4-5-20250929"},
		{fixture: "anthropic/thinking_tool_use.stream.http", stream: true,
			reasoning: []providers.Reasoning{{Protocol: providers.ProtocolAnthropic, Text: sfThinking, Signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYdsHarnessSig0001"}},
			calls:     []providers.ToolCall{{ID: "toolu_01A09q90qw90lq917835lq9", Name: "get_weather", Arguments: `{"location": "San Francisco, CA", "unit": "celsius"}`}},
			finish:    providers.FinishToolCalls, usage: providers.Usage{InputTokens: 412, OutputTokens: 156}, model: "claude-sonnet-4-5-20250929"},
		{fixture: "anthropic/tool_use.json.http", text: "I'll check the current weather in San Francisco for you.",
			calls:  []providers.ToolCall{{ID: "toolu_01A09q90qw90lq917835lq9", Name: "get_weather", Arguments: `{"location":"San Francisco, CA","unit":"celsius"}`}},
			finish: providers.FinishToolCalls, usage: providers.Usage{InputTokens: 384, OutputTokens: 92}, model: "claude-sonnet-4-5-20250929"},
		{fixture: "anthropic/tool_use.stream.http", stream: true, text: "Okay, let's check the weather for San Francisco, CA:",
			deltas: strings.SplitAfter("Okay|,| let|'s| check| the| weather| for| San| Francisco|,| CA|:", "|"),
			calls:  []providers.ToolCall{{ID: "toolu_01T1x1fJ34qAmk2tNTrN7Up6", Name: "get_weather", Arguments: `{"location": "San Francisco, CA", "unit": "fahrenheit"}`}},
			finish: providers.FinishToolCalls, usage: providers.Usage{InputTokens: 472, OutputTokens: 89}, model: "claude-opus-4-1-20250805"},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			req := codec.Request(tt.stream)
			req.Tools = []providers.ToolSpec{codec.WeatherTool()}
			resp, sink := codec.Play(t, req, fake.Fixture(t, tt.fixture))
			if resp.Message.Role != providers.RoleAssistant || resp.Message.Text() != tt.text {
				t.Errorf("text %q, want %q", resp.Message.Text(), tt.text)
			}
			var deltas []string
			for _, d := range tt.deltas {
				deltas = append(deltas, strings.TrimSuffix(d, "|"))
			}
			if !reflect.DeepEqual(sink.Text, deltas) {
				t.Errorf("deltas %q, want %q", sink.Text, deltas)
			}
			providertest.CheckReasoning(t, resp.Message, sink, tt.stream, tt.reasoning)
			if !reflect.DeepEqual(resp.Message.ToolCalls(), tt.calls) {
				t.Errorf("calls %+v\nwant %+v", resp.Message.ToolCalls(), tt.calls)
			}
			providertest.CheckEnd(t, resp, tt.finish, tt.usage, tt.model)
		})
	}
}

func TestFixtureThinkingOrder(t *testing.T) {
	srv := fake.NewServer(t)
	srv.Enqueue(fake.Fixture(t, "anthropic/thinking_tool_use.stream.http"))
	c, _ := newTestClient(srv)
	resp, err := c.Complete(context.Background(), codec.Request(true), nil)
	if err != nil {
		t.Fatal(err)
	}
	if p := resp.Message.Parts; len(p) != 2 || p[0].Type != providers.PartReasoning || p[1].Type != providers.PartToolCall {
		t.Fatalf("parts %+v, want the thinking block before the tool call", p)
	}
}

func TestFixtureRetries(t *testing.T) {
	providertest.FixtureRetries(t, codec, "anthropic/text.stream.http", "Hello!", []providertest.RetryCase{
		{Fixture: "anthropic/rate_limit.http", Wait: 7 * time.Second, Reason: "rate_limited (HTTP 429): This request would exceed the rate limit"},
		{Fixture: "anthropic/overloaded.http", Wait: time.Second, Reason: "overloaded (HTTP 529): Overloaded"},
		{Fixture: "anthropic/server_error.http", Wait: time.Second, Reason: "provider_error (HTTP 500): Internal server error"},
	})
}

func TestFixtureStreamErrorAfterOutput(t *testing.T) {
	srv := fake.NewServer(t)
	srv.Enqueue(fake.Fixture(t, "anthropic/stream_error.stream.http"), fake.Reply{Text: "must not be reached"})
	c, _ := newTestClient(srv)
	sink := &providertest.Sink{}
	_, err := c.Complete(context.Background(), codec.Request(true), sink)
	pe := providertest.MustError(t, err, providers.ErrOverloaded, testKey)
	// "Hello" already reached the sink: a retry would repeat it.
	if pe.Message != "Overloaded" || len(srv.Requests()) != 1 || !reflect.DeepEqual(sink.Text, []string{"Hello"}) {
		t.Fatalf("message %q, %d requests, deltas %q", pe.Message, len(srv.Requests()), sink.Text)
	}
}

func TestStreamErrorBeforeOutputRetried(t *testing.T) {
	srv := fake.NewServer(t)
	srv.Enqueue(
		fake.Reply{Steps: []fake.Step{{Error: &fake.APIError{Message: "Overloaded", Type: "overloaded_error"}}}},
		fake.Reply{Text: "fine"},
	)
	c, slept := newTestClient(srv)
	resp, err := c.Complete(context.Background(), codec.Request(true), &providertest.Sink{})
	if err != nil || resp.Message.Text() != "fine" || len(*slept) != 1 {
		t.Fatalf("resp %+v err %v slept %v", resp, err, *slept)
	}
}

func TestRetriesExhausted(t *testing.T) {
	providertest.RetriesExhausted(t, codec, []providertest.ExhaustCase{
		{Name: "429", Reply: fake.Reply{Status: 429, Error: &fake.APIError{Message: "Number of request tokens has exceeded your per-minute rate limit"}}, Code: providers.ErrRateLimited},
		{Name: "529", Reply: fake.Reply{Status: 529, Error: &fake.APIError{Message: "Overloaded"}}, Code: providers.ErrOverloaded},
		{Name: "502 html", Reply: fake.Reply{Status: 502, Body: "<html><body><h1>502 Bad Gateway</h1></body></html>", Headers: map[string]string{"Content-Type": "text/html"}}, Code: providers.ErrProviderError},
	})
}

func TestErrorsNotRetried(t *testing.T) {
	providertest.ErrorsNotRetried(t, codec, []providertest.ErrorCase{
		{Name: "auth", Reply: fake.Reply{Status: 401, Error: &fake.APIError{Message: "invalid x-api-key"}}, Code: providers.ErrAuthFailed, Contains: "invalid x-api-key"},
		{Name: "key echoed", Reply: fake.Reply{Status: 401, Error: &fake.APIError{Message: "key " + testKey + " is invalid"}}, Code: providers.ErrAuthFailed, Contains: "key [redacted] is invalid"},
		{Name: "permission", Reply: fake.Reply{Status: 403, Error: &fake.APIError{Message: "Your API key does not have permission to use the specified resource."}}, Code: providers.ErrAuthFailed, Contains: "permission"},
		{Name: "model", Reply: fake.Reply{Status: 404, Error: &fake.APIError{Message: "model: claude-9"}}, Tools: true, Code: providers.ErrModelNotFound, Contains: "claude-9"},
		{Name: "context", Reply: fake.Reply{Status: 400, Error: &fake.APIError{Message: "prompt is too long: 208310 tokens > 200000 maximum"}}, Tools: true, Code: providers.ErrContextOverflow, Contains: "prompt is too long"},
		{Name: "context with max_tokens", Reply: fake.Reply{Status: 400, Error: &fake.APIError{Message: "input length and `max_tokens` exceed context limit: 195000 + 8192 > 200000, decrease input length or `max_tokens` and try again"}}, Code: providers.ErrContextOverflow, Contains: "exceed context limit"},
		{Name: "too large", Reply: fake.Reply{Status: 413, Error: &fake.APIError{Message: "Request exceeds the maximum allowed number of bytes."}}, Code: providers.ErrContextOverflow, Contains: "maximum allowed"},
		{Name: "tools", Reply: fake.Reply{Status: 400, Error: &fake.APIError{Message: "tools.0.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12"}}, Tools: true, Code: providers.ErrProviderRejectedTools, Contains: "input_schema"},
		{Name: "tool name", Reply: fake.Reply{Status: 400, Error: &fake.APIError{Message: "tools.1.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'"}}, Tools: true, Code: providers.ErrProviderRejectedTools, Contains: "tools.1"},
		{Name: "tool words without tools", Reply: fake.Reply{Status: 400, Error: &fake.APIError{Message: "tools.0: invalid"}}, Code: providers.ErrProviderError, Contains: "tools.0"},
		{Name: "tool_result mismatch is not about the tool list", Reply: fake.Reply{Status: 400, Error: &fake.APIError{Message: "messages.2: `tool_use` ids were found without `tool_result` blocks immediately after"}}, Tools: true, Code: providers.ErrProviderError, Contains: "tool_result"},
		{Name: "billing", Reply: fake.Reply{Status: 400, Error: &fake.APIError{Message: "Your credit balance is too low", Type: "billing_error"}}, Code: providers.ErrProviderError, Contains: "credit balance"},
	})
}

func TestScriptedReplies(t *testing.T) {
	calls := []fake.ToolCall{
		{ID: "toolu_a", Name: "read_file", Arguments: `{"path":"a.txt","lines":[1,2,3]}`},
		{ID: "toolu_b", Name: "web_search", Arguments: `{"query":"héllo wörld"}`},
		{ID: "toolu_c", Name: "no_args", Arguments: ``},
	}
	want := []providers.ToolCall{
		{ID: "toolu_a", Name: "read_file", Arguments: calls[0].Arguments},
		{ID: "toolu_b", Name: "web_search", Arguments: calls[1].Arguments},
		{ID: "toolu_c", Name: "no_args", Arguments: `{}`},
	}
	usage := providers.Usage{InputTokens: 100, OutputTokens: 40, CachedTokens: 64}
	reasoning := providers.Reasoning{Protocol: providers.ProtocolAnthropic, Text: "Let me think about it.", Signature: fake.ThinkingSignature(1, 0)}
	providertest.ScriptedReplies(t, codec, reasoning, calls, usage, func(t *testing.T, stream bool, resp *providers.Response, sink *providertest.Sink) {
		if !reflect.DeepEqual(resp.Message.ToolCalls(), want) {
			t.Fatalf("calls %+v\nwant %+v", resp.Message.ToolCalls(), want)
		}
		if stream && len(sink.Reasoning) != 4 {
			t.Fatalf("reasoning deltas %q, want 4", sink.Reasoning)
		} else if !stream && len(sink.Text)+len(sink.Reasoning) != 0 {
			t.Fatalf("deltas sent for a non-streamed answer")
		}
	})
}

func TestFinishReasons(t *testing.T) {
	providertest.FinishReasons(t, codec, map[string]providers.FinishReason{
		"stop": providers.FinishStop, "length": providers.FinishLength, "content_filter": providers.FinishContentFilter,
		"stop_sequence": providers.FinishStop, "pause_turn": providers.FinishOther, "model_context_window_exceeded": providers.FinishLength,
	})
}

func TestStreamRequestAnsweredWithJSON(t *testing.T) {
	providertest.StreamAnsweredWithJSON(t, codec)
}

func TestCutStream(t *testing.T) {
	providertest.CutStream(t, codec)
}

func TestCancelDuringDelay(t *testing.T) {
	providertest.CancelledBeforeAnswer(t, codec)
}

func TestKeyNeverInErrors(t *testing.T) {
	replies := []fake.Reply{
		{Status: 401, Body: `{"type":"error","error":{"type":"authentication_error","message":"bad key ` + testKey + `"}}`},
		{Status: 400, Body: `{"error":"` + testKey + `"}`},
		{Steps: []fake.Step{{Error: &fake.APIError{Message: "key " + testKey + " revoked"}}}},
		{Status: 500, Body: `<html>` + testKey + `</html>`},
	}
	providertest.KeyNeverInErrors(t, codec, replies)
}

func TestHeadersAndURL(t *testing.T) {
	providertest.HeadersAndURL(t, codec, []providertest.HeaderCase{
		{Name: "default", Path: "/v1/messages", Headers: map[string]string{"X-Api-Key": testKey, "Anthropic-Version": "2023-06-01", "Content-Type": "application/json", "Accept": "text/event-stream"}, Absent: []string{"Authorization"}},
		{Name: "proxy with /v1 and beta header", Config: func(c *providers.Config) {
			c.BaseURL += "/proxy/v1/"
			c.Headers = map[string]string{"anthropic-beta": "interleaved-thinking-2025-05-14"}
			c.Query = map[string]string{"tenant": "a"}
		}, Path: "/proxy/v1/messages", Query: "tenant=a", Headers: map[string]string{"Anthropic-Beta": "interleaved-thinking-2025-05-14"}},
		{Name: "auth header override", Config: func(c *providers.Config) { c.AuthHeader = "Api-Key" }, Path: "/v1/messages", Headers: map[string]string{"Api-Key": testKey}, Absent: []string{"X-Api-Key"}},
		{Name: "no key", Config: func(c *providers.Config) { c.APIKey = "" }, Path: "/v1/messages", Absent: []string{"X-Api-Key", "Authorization"}},
	})
}

func TestEndpoint(t *testing.T) {
	for base, want := range map[string]string{
		"":                              "https://api.anthropic.com/v1/messages",
		"https://api.anthropic.com/":    "https://api.anthropic.com/v1/messages",
		"http://127.0.0.1:8080/v1":      "http://127.0.0.1:8080/v1/messages",
		"https://gw.example/anthropic/": "https://gw.example/anthropic/v1/messages",
	} {
		if got, err := endpoint(base, nil); err != nil || got != want {
			t.Errorf("endpoint(%q) = %q, %v; want %q", base, got, err, want)
		}
	}
	_, err := New(providers.Config{BaseURL: "api.anthropic.com"}).Complete(context.Background(), codec.Request(false), nil)
	providertest.MustError(t, err, providers.ErrProviderError, testKey)
}
