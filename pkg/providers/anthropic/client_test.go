package anthropic

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/fake"
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
			srv := fake.NewServer(t)
			srv.Enqueue(fake.Fixture(t, tt.fixture))
			c, _ := newTestClient(srv)
			req := userRequest(tt.stream)
			req.Tools = []providers.ToolSpec{weatherTool()}
			sink := &recSink{}
			resp, err := c.Complete(context.Background(), req, sink)
			if err != nil {
				t.Fatal(err)
			}
			if resp.Message.Role != providers.RoleAssistant || resp.Message.Text() != tt.text {
				t.Errorf("text %q, want %q", resp.Message.Text(), tt.text)
			}
			var deltas []string
			for _, d := range tt.deltas {
				deltas = append(deltas, strings.TrimSuffix(d, "|"))
			}
			if !reflect.DeepEqual(sink.text, deltas) {
				t.Errorf("deltas %q, want %q", sink.text, deltas)
			}
			var reasoning []providers.Reasoning
			for _, p := range resp.Message.Parts {
				if p.Type == providers.PartReasoning {
					reasoning = append(reasoning, *p.Reasoning)
				}
			}
			if !reflect.DeepEqual(reasoning, tt.reasoning) {
				t.Errorf("reasoning %+v\nwant %+v", reasoning, tt.reasoning)
			}
			if tt.stream && len(tt.reasoning) > 0 && strings.Join(sink.reasoning, "") != tt.reasoning[0].Text {
				t.Errorf("reasoning deltas %q", sink.reasoning)
			}
			if !reflect.DeepEqual(resp.Message.ToolCalls(), tt.calls) {
				t.Errorf("calls %+v\nwant %+v", resp.Message.ToolCalls(), tt.calls)
			}
			if resp.FinishReason != tt.finish || resp.Usage != tt.usage || resp.Model != tt.model {
				t.Errorf("finish %s usage %+v model %q; want %s %+v %q", resp.FinishReason, resp.Usage, resp.Model, tt.finish, tt.usage, tt.model)
			}
		})
	}
}

func TestFixtureThinkingOrder(t *testing.T) {
	srv := fake.NewServer(t)
	srv.Enqueue(fake.Fixture(t, "anthropic/thinking_tool_use.stream.http"))
	c, _ := newTestClient(srv)
	resp, err := c.Complete(context.Background(), userRequest(true), nil)
	if err != nil {
		t.Fatal(err)
	}
	if p := resp.Message.Parts; len(p) != 2 || p[0].Type != providers.PartReasoning || p[1].Type != providers.PartToolCall {
		t.Fatalf("parts %+v, want the thinking block before the tool call", p)
	}
}

func TestFixtureRetries(t *testing.T) {
	for _, tt := range []struct {
		fixture string
		wait    time.Duration
		reason  string
	}{
		{"anthropic/rate_limit.http", 7 * time.Second, "rate_limited (HTTP 429): This request would exceed the rate limit"},
		{"anthropic/overloaded.http", time.Second, "overloaded (HTTP 529): Overloaded"},
		{"anthropic/server_error.http", time.Second, "provider_error (HTTP 500): Internal server error"},
	} {
		t.Run(tt.fixture, func(t *testing.T) {
			srv := fake.NewServer(t)
			srv.Enqueue(fake.Fixture(t, tt.fixture), fake.Fixture(t, "anthropic/text.stream.http"))
			c, slept := newTestClient(srv)
			sink := &recSink{}
			resp, err := c.Complete(context.Background(), userRequest(true), sink)
			if err != nil {
				t.Fatal(err)
			}
			if resp.Message.Text() != "Hello!" || len(srv.Requests()) != 2 {
				t.Fatalf("text %q after %d requests", resp.Message.Text(), len(srv.Requests()))
			}
			if len(sink.retries) != 1 || sink.retries[0].wait != tt.wait || !strings.HasPrefix(sink.retries[0].reason, tt.reason) {
				t.Fatalf("retries %+v, want one after %v: %q", sink.retries, tt.wait, tt.reason)
			}
			if !reflect.DeepEqual(*slept, []time.Duration{tt.wait}) {
				t.Fatalf("slept %v", *slept)
			}
		})
	}
}

func TestFixtureStreamErrorAfterOutput(t *testing.T) {
	srv := fake.NewServer(t)
	srv.Enqueue(fake.Fixture(t, "anthropic/stream_error.stream.http"), fake.Reply{Text: "must not be reached"})
	c, _ := newTestClient(srv)
	sink := &recSink{}
	_, err := c.Complete(context.Background(), userRequest(true), sink)
	pe := mustProviderError(t, err, providers.ErrOverloaded)
	// "Hello" already reached the sink: a retry would repeat it.
	if pe.Message != "Overloaded" || len(srv.Requests()) != 1 || !reflect.DeepEqual(sink.text, []string{"Hello"}) {
		t.Fatalf("message %q, %d requests, deltas %q", pe.Message, len(srv.Requests()), sink.text)
	}
}

func TestStreamErrorBeforeOutputRetried(t *testing.T) {
	srv := fake.NewServer(t)
	srv.Enqueue(
		fake.Reply{Steps: []fake.Step{{Error: &fake.APIError{Message: "Overloaded", Type: "overloaded_error"}}}},
		fake.Reply{Text: "fine"},
	)
	c, slept := newTestClient(srv)
	resp, err := c.Complete(context.Background(), userRequest(true), &recSink{})
	if err != nil || resp.Message.Text() != "fine" || len(*slept) != 1 {
		t.Fatalf("resp %+v err %v slept %v", resp, err, *slept)
	}
}

func TestRetriesExhausted(t *testing.T) {
	for _, tt := range []struct {
		name  string
		reply fake.Reply
		code  providers.ErrorCode
	}{
		{"429", fake.Reply{Status: 429, Error: &fake.APIError{Message: "Number of request tokens has exceeded your per-minute rate limit"}}, providers.ErrRateLimited},
		{"529", fake.Reply{Status: 529, Error: &fake.APIError{Message: "Overloaded"}}, providers.ErrOverloaded},
		{"502 html", fake.Reply{Status: 502, Body: "<html><body><h1>502 Bad Gateway</h1></body></html>", Headers: map[string]string{"Content-Type": "text/html"}}, providers.ErrProviderError},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := fake.NewServer(t)
			for range 3 {
				srv.Enqueue(tt.reply)
			}
			c, slept := newTestClient(srv, func(cfg *providers.Config) { cfg.Retry.MaxRetries = 2 })
			_, err := c.Complete(context.Background(), userRequest(true), &recSink{})
			pe := mustProviderError(t, err, tt.code)
			if len(srv.Requests()) != 3 || len(*slept) != 2 || !strings.HasSuffix(pe.Message, "(gave up after 2 retries)") || strings.Contains(pe.Message, "<") {
				t.Fatalf("%d requests, slept %v, message %q", len(srv.Requests()), *slept, pe.Message)
			}
		})
	}
}

func TestErrorsNotRetried(t *testing.T) {
	for _, tt := range []struct {
		name     string
		reply    fake.Reply
		tools    bool
		code     providers.ErrorCode
		contains string
	}{
		{"auth", fake.Reply{Status: 401, Error: &fake.APIError{Message: "invalid x-api-key"}}, false, providers.ErrAuthFailed, "invalid x-api-key"},
		{"key echoed", fake.Reply{Status: 401, Error: &fake.APIError{Message: "key " + testKey + " is invalid"}}, false, providers.ErrAuthFailed, "key [redacted] is invalid"},
		{"permission", fake.Reply{Status: 403, Error: &fake.APIError{Message: "Your API key does not have permission to use the specified resource."}}, false, providers.ErrAuthFailed, "permission"},
		{"model", fake.Reply{Status: 404, Error: &fake.APIError{Message: "model: claude-9"}}, true, providers.ErrModelNotFound, "claude-9"},
		{"context", fake.Reply{Status: 400, Error: &fake.APIError{Message: "prompt is too long: 208310 tokens > 200000 maximum"}}, true, providers.ErrContextOverflow, "prompt is too long"},
		{"context with max_tokens", fake.Reply{Status: 400, Error: &fake.APIError{Message: "input length and `max_tokens` exceed context limit: 195000 + 8192 > 200000, decrease input length or `max_tokens` and try again"}}, false, providers.ErrContextOverflow, "exceed context limit"},
		{"too large", fake.Reply{Status: 413, Error: &fake.APIError{Message: "Request exceeds the maximum allowed number of bytes."}}, false, providers.ErrContextOverflow, "maximum allowed"},
		{"tools", fake.Reply{Status: 400, Error: &fake.APIError{Message: "tools.0.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12"}}, true, providers.ErrProviderRejectedTools, "input_schema"},
		{"tool name", fake.Reply{Status: 400, Error: &fake.APIError{Message: "tools.1.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'"}}, true, providers.ErrProviderRejectedTools, "tools.1"},
		{"tool words without tools", fake.Reply{Status: 400, Error: &fake.APIError{Message: "tools.0: invalid"}}, false, providers.ErrProviderError, "tools.0"},
		{"tool_result mismatch is not about the tool list", fake.Reply{Status: 400, Error: &fake.APIError{Message: "messages.2: `tool_use` ids were found without `tool_result` blocks immediately after"}}, true, providers.ErrProviderError, "tool_result"},
		{"billing", fake.Reply{Status: 400, Error: &fake.APIError{Message: "Your credit balance is too low", Type: "billing_error"}}, false, providers.ErrProviderError, "credit balance"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := fake.NewServer(t)
			srv.Enqueue(tt.reply, fake.Reply{Text: "must not be reached"})
			c, slept := newTestClient(srv)
			req := userRequest(true)
			if tt.tools {
				req.Tools = []providers.ToolSpec{weatherTool()}
			}
			_, err := c.Complete(context.Background(), req, &recSink{})
			pe := mustProviderError(t, err, tt.code)
			if !strings.Contains(pe.Message, tt.contains) || pe.Status != tt.reply.Status {
				t.Fatalf("message %q (status %d), want it to contain %q", pe.Message, pe.Status, tt.contains)
			}
			if len(srv.Requests()) != 1 || len(*slept) != 0 {
				t.Fatalf("retried: %d requests", len(srv.Requests()))
			}
		})
	}
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
	for _, stream := range []bool{true, false} {
		t.Run(map[bool]string{true: "stream", false: "json"}[stream], func(t *testing.T) {
			srv := fake.NewServer(t)
			srv.Enqueue(fake.Reply{
				Reasoning: "Let me think about it.", Text: "Calling tools.", Chunks: 4, Interleave: true, ToolCalls: calls,
				Usage: &fake.Usage{InputTokens: 100, OutputTokens: 40, CachedTokens: 64},
				Model: "served-model",
			})
			c, _ := newTestClient(srv)
			sink := &recSink{}
			resp, err := c.Complete(context.Background(), userRequest(stream), sink)
			if err != nil {
				t.Fatal(err)
			}
			parts := resp.Message.Parts
			if len(parts) != 5 || parts[0].Type != providers.PartReasoning || parts[1].Type != providers.PartText {
				t.Fatalf("parts %+v, want reasoning, text, 3 tool calls", parts)
			}
			wantReasoning := providers.Reasoning{Protocol: providers.ProtocolAnthropic, Text: "Let me think about it.", Signature: fake.ThinkingSignature(1, 0)}
			if *parts[0].Reasoning != wantReasoning {
				t.Fatalf("reasoning %+v", parts[0].Reasoning)
			}
			if !reflect.DeepEqual(resp.Message.ToolCalls(), want) {
				t.Fatalf("calls %+v\nwant %+v", resp.Message.ToolCalls(), want)
			}
			wantUsage := providers.Usage{InputTokens: 100, OutputTokens: 40, CachedTokens: 64}
			if resp.FinishReason != providers.FinishToolCalls || resp.Usage != wantUsage || resp.Model != "served-model" {
				t.Fatalf("finish %s usage %+v model %s", resp.FinishReason, resp.Usage, resp.Model)
			}
			if stream {
				if len(sink.text) != 4 || len(sink.reasoning) != 4 || strings.Join(sink.reasoning, "") != "Let me think about it." {
					t.Fatalf("deltas text %q reasoning %q", sink.text, sink.reasoning)
				}
			} else if len(sink.text)+len(sink.reasoning) != 0 {
				t.Fatalf("deltas sent for a non-streamed answer")
			}
		})
	}
}

func TestFinishReasons(t *testing.T) {
	for wire, want := range map[string]providers.FinishReason{
		"stop": providers.FinishStop, "length": providers.FinishLength, "content_filter": providers.FinishContentFilter,
		"stop_sequence": providers.FinishStop, "pause_turn": providers.FinishOther, "model_context_window_exceeded": providers.FinishLength,
	} {
		srv := fake.NewServer(t)
		srv.Enqueue(fake.Reply{Text: "x", Finish: wire}, fake.Reply{Text: "x", Finish: wire})
		c, _ := newTestClient(srv)
		for _, stream := range []bool{true, false} {
			resp, err := c.Complete(context.Background(), userRequest(stream), nil)
			if err != nil {
				t.Fatal(err)
			}
			if resp.FinishReason != want {
				t.Errorf("%s (stream %v) -> %s, want %s", wire, stream, resp.FinishReason, want)
			}
		}
	}
}

func TestStreamRequestAnsweredWithJSON(t *testing.T) {
	srv := fake.NewServer(t)
	srv.Enqueue(fake.Reply{Text: "plain json", Stream: fake.Bool(false)})
	c, _ := newTestClient(srv)
	resp, err := c.Complete(context.Background(), userRequest(true), nil)
	if err != nil || resp.Message.Text() != "plain json" {
		t.Fatalf("resp %+v err %v", resp, err)
	}
}

func TestCutStream(t *testing.T) {
	srv := fake.NewServer(t)
	srv.Enqueue(
		fake.Reply{Steps: []fake.Step{{Cut: true}}},
		fake.Reply{Steps: []fake.Step{{Text: "Hel"}, {Cut: true}}},
	)
	c, _ := newTestClient(srv)
	sink := &recSink{}
	_, err := c.Complete(context.Background(), userRequest(true), sink)
	pe := mustProviderError(t, err, providers.ErrProviderError)
	if !errors.Is(err, providers.ErrStreamCut) || len(srv.Requests()) != 2 || strings.Join(sink.text, "") != "Hel" {
		t.Fatalf("err %v after %d requests, deltas %q", pe, len(srv.Requests()), sink.text)
	}
}

func TestCancelDuringDelay(t *testing.T) {
	srv := fake.NewServer(t)
	srv.Enqueue(fake.Reply{Delay: fake.Duration(time.Hour), Text: "never"})
	c, _ := newTestClient(srv)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := c.Complete(ctx, userRequest(true), nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestKeyNeverInErrors(t *testing.T) {
	replies := []fake.Reply{
		{Status: 401, Body: `{"type":"error","error":{"type":"authentication_error","message":"bad key ` + testKey + `"}}`},
		{Status: 400, Body: `{"error":"` + testKey + `"}`},
		{Steps: []fake.Step{{Error: &fake.APIError{Message: "key " + testKey + " revoked"}}}},
		{Status: 500, Body: `<html>` + testKey + `</html>`},
	}
	for i, r := range replies {
		srv := fake.NewServer(t)
		srv.Enqueue(r)
		c, _ := newTestClient(srv, func(cfg *providers.Config) { cfg.Retry.MaxRetries = -1 })
		_, err := c.Complete(context.Background(), userRequest(true), &recSink{})
		if err == nil {
			t.Fatalf("reply %d: no error", i)
		}
		if pe := providers.AsError(err); strings.Contains(err.Error(), testKey) || strings.Contains(pe.Message, testKey) {
			t.Fatalf("reply %d: error leaks the key: %v", i, err)
		}
	}
}

func TestHeadersAndURL(t *testing.T) {
	tests := []struct {
		name    string
		cfg     func(*providers.Config)
		path    string
		query   string
		headers map[string]string
		absent  []string
	}{
		{"default", nil, "/v1/messages", "", map[string]string{"X-Api-Key": testKey, "Anthropic-Version": "2023-06-01", "Content-Type": "application/json", "Accept": "text/event-stream"}, []string{"Authorization"}},
		{"proxy with /v1 and beta header", func(c *providers.Config) {
			c.BaseURL += "/proxy/v1/"
			c.Headers = map[string]string{"anthropic-beta": "interleaved-thinking-2025-05-14"}
			c.Query = map[string]string{"tenant": "a"}
		}, "/proxy/v1/messages", "tenant=a", map[string]string{"Anthropic-Beta": "interleaved-thinking-2025-05-14"}, nil},
		{"auth header override", func(c *providers.Config) { c.AuthHeader = "Api-Key" }, "/v1/messages", "", map[string]string{"Api-Key": testKey}, []string{"X-Api-Key"}},
		{"no key", func(c *providers.Config) { c.APIKey = "" }, "/v1/messages", "", nil, []string{"X-Api-Key", "Authorization"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := fake.NewServer(t)
			srv.Enqueue(fake.Reply{Text: "ok"})
			var muts []func(*providers.Config)
			if tt.cfg != nil {
				muts = append(muts, tt.cfg)
			}
			c, _ := newTestClient(srv, muts...)
			if _, err := c.Complete(context.Background(), userRequest(true), &recSink{}); err != nil {
				t.Fatal(err)
			}
			got := srv.Requests()[0]
			if got.Method != "POST" || got.Path != tt.path || got.Query != tt.query {
				t.Fatalf("%s %s?%s, want %s?%s", got.Method, got.Path, got.Query, tt.path, tt.query)
			}
			for k, v := range tt.headers {
				if got.Header.Get(k) != v {
					t.Errorf("header %s = %q, want %q", k, got.Header.Get(k), v)
				}
			}
			for _, k := range tt.absent {
				if got.Header.Get(k) != "" {
					t.Errorf("header %s sent", k)
				}
			}
		})
	}
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
	_, err := New(providers.Config{BaseURL: "api.anthropic.com"}).Complete(context.Background(), userRequest(false), nil)
	mustProviderError(t, err, providers.ErrProviderError)
}
