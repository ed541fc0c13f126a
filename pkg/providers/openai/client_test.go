package openai

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

func TestProtocol(t *testing.T) {
	if p := New(providers.Config{}).Protocol(); p != providers.ProtocolOpenAI {
		t.Fatalf("protocol %q", p)
	}
}

var bostonParis = []providers.ToolCall{
	{ID: "call_DdmO9pD3xa9XTPNJ32zg2hcA", Name: "get_current_weather", Arguments: `{"location":"Boston, MA","unit":"celsius"}`},
	{ID: "call_ABD9r0Uf7PxXzQ0s6H1mTkAq", Name: "get_current_weather", Arguments: `{"location":"Paris, France","unit":"celsius"}`},
}

func TestFixtureScenarios(t *testing.T) {
	tests := []struct {
		fixture string
		stream  bool
		text    string
		deltas  []string
		calls   []providers.ToolCall
		finish  providers.FinishReason
		usage   providers.Usage
		model   string
	}{
		{"openai-chat/text.json.http", false, "Hello! How can I assist you today?", nil, nil, providers.FinishStop,
			providers.Usage{InputTokens: 19, OutputTokens: 10}, "gpt-5.4"},
		{"openai-chat/text.stream.http", true, "Hello! How can I assist you today?",
			[]string{"Hello", "!", " How", " can", " I", " assist", " you", " today", "?"}, nil, providers.FinishStop, providers.Usage{}, "gpt-4.1-2025-04-14"},
		{"openai-chat/text.stream-usage.http", true, "Hello! How can I assist you today?",
			[]string{"Hello", "!", " How", " can", " I", " assist", " you", " today", "?"}, nil, providers.FinishStop,
			providers.Usage{InputTokens: 19, OutputTokens: 10}, "gpt-4.1-2025-04-14"},
		{"openai-chat/tool_call.json.http", false, "", nil,
			[]providers.ToolCall{{ID: "call_abc123", Name: "get_current_weather", Arguments: "{\n\"location\": \"Boston, MA\"\n}"}},
			providers.FinishToolCalls, providers.Usage{InputTokens: 82, OutputTokens: 17}, "gpt-4o-mini"},
		{"openai-chat/tool_call.stream.http", true, "", nil, bostonParis, providers.FinishToolCalls, providers.Usage{}, "gpt-4.1-2025-04-14"},
		{"openai-chat/tool_call.stream-usage.http", true, "", nil, bostonParis, providers.FinishToolCalls,
			providers.Usage{InputTokens: 82, OutputTokens: 49}, "gpt-4.1-2025-04-14"},
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
			if !reflect.DeepEqual(sink.text, tt.deltas) {
				t.Errorf("deltas %q, want %q", sink.text, tt.deltas)
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

func TestFixtureRateLimitRetried(t *testing.T) {
	srv := fake.NewServer(t)
	srv.Enqueue(fake.Fixture(t, "openai-chat/rate_limit.http"), fake.Fixture(t, "openai-chat/text.stream-usage.http"))
	c, slept := newTestClient(srv)
	sink := &recSink{}
	resp, err := c.Complete(context.Background(), userRequest(true), sink)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Text() != "Hello! How can I assist you today?" {
		t.Fatalf("text %q", resp.Message.Text())
	}
	if len(sink.retries) != 1 || sink.retries[0].attempt != 1 || sink.retries[0].wait != 2*time.Second {
		t.Fatalf("retries %+v, want one announced with the Retry-After of 2s", sink.retries)
	}
	if !strings.HasPrefix(sink.retries[0].reason, "rate_limited (HTTP 429): Rate limit reached for gpt-4.1") {
		t.Fatalf("reason %q", sink.retries[0].reason)
	}
	if !reflect.DeepEqual(*slept, []time.Duration{2 * time.Second}) {
		t.Fatalf("slept %v", *slept)
	}
}

func TestFixtureServerErrorRetriedThenSucceeds(t *testing.T) {
	srv := fake.NewServer(t)
	srv.Enqueue(fake.Fixture(t, "openai-chat/server_error.http"), fake.Fixture(t, "openai-chat/server_error.http"), fake.Fixture(t, "openai-chat/text.json.http"))
	c, slept := newTestClient(srv, func(cfg *providers.Config) { cfg.Retry = providers.RetryPolicy{BaseDelay: 10 * time.Millisecond} })
	sink := &recSink{}
	resp, err := c.Complete(context.Background(), userRequest(false), sink)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Text() == "" || len(srv.Requests()) != 3 {
		t.Fatalf("text %q after %d requests", resp.Message.Text(), len(srv.Requests()))
	}
	if !reflect.DeepEqual(*slept, []time.Duration{10 * time.Millisecond, 20 * time.Millisecond}) {
		t.Fatalf("slept %v, want doubling backoff", *slept)
	}
	if sink.retries[1].reason != "provider_error (HTTP 500): The server had an error while processing your request. Sorry about that!" {
		t.Fatalf("reason %q", sink.retries[1].reason)
	}
}

func TestRetriesExhausted(t *testing.T) {
	for _, tt := range []struct {
		name  string
		reply fake.Reply
		code  providers.ErrorCode
	}{
		{"429", fake.Reply{Status: 429, Error: &fake.APIError{Message: "Rate limit reached", Code: "rate_limit_exceeded"}}, providers.ErrRateLimited},
		{"503", fake.Reply{Status: 503, Error: &fake.APIError{Message: "The engine is currently overloaded"}}, providers.ErrOverloaded},
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
			if len(srv.Requests()) != 3 || len(*slept) != 2 || !strings.HasSuffix(pe.Message, "(gave up after 2 retries)") {
				t.Fatalf("%d requests, slept %v, message %q", len(srv.Requests()), *slept, pe.Message)
			}
			if strings.Contains(pe.Message, "<") {
				t.Fatalf("message shows the HTML body: %q", pe.Message)
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
		{"auth", fake.Reply{Status: 401, Error: &fake.APIError{Message: "Incorrect API key provided: " + testKey + ". You can find your API key at https://platform.openai.com/account/api-keys.", Code: "invalid_api_key"}}, false, providers.ErrAuthFailed, "Incorrect API key provided: [redacted]"},
		{"forbidden", fake.Reply{Status: 403, Error: &fake.APIError{Message: "Project does not have access"}}, false, providers.ErrAuthFailed, "does not have access"},
		{"model", fake.Reply{Status: 404, Error: &fake.APIError{Message: "The model `gpt-9` does not exist or you do not have access to it.", Code: "model_not_found"}}, true, providers.ErrModelNotFound, "gpt-9"},
		{"model code on 400", fake.Reply{Status: 400, Error: &fake.APIError{Message: "unknown model", Code: "model_not_found"}}, false, providers.ErrModelNotFound, "unknown model"},
		{"ollama model", fake.Reply{Status: 404, Body: `{"error":"model \"llama9\" not found, try pulling it first"}`}, false, providers.ErrModelNotFound, "try pulling it first"},
		{"quota", fake.Reply{Status: 429, Error: &fake.APIError{Message: "You exceeded your current quota", Code: "insufficient_quota", Type: "insufficient_quota"}}, false, providers.ErrRateLimited, "current quota"},
		{"context", fake.Reply{Status: 400, Error: &fake.APIError{Message: "This model's maximum context length is 128000 tokens.", Code: "context_length_exceeded"}}, true, providers.ErrContextOverflow, "maximum context length"},
		{"context no code", fake.Reply{Status: 400, Body: `{"object":"error","message":"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens","type":"BadRequestError","code":400}`}, false, providers.ErrContextOverflow, "4096"},
		{"context 413", fake.Reply{Status: 413, Body: `{"error":{"message":"Request too large: too many tokens"}}`}, false, providers.ErrContextOverflow, "too many tokens"},
		{"ollama tools", fake.Reply{Status: 400, Body: `{"error":"registry.ollama.ai/library/gemma:2b does not support tools"}`}, true, providers.ErrProviderRejectedTools, "does not support tools"},
		{"vllm tools", fake.Reply{Status: 400, Body: `{"object":"error","message":"\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set","type":"BadRequestError","param":null,"code":400}`}, true, providers.ErrProviderRejectedTools, "--enable-auto-tool-choice"},
		{"tools 422", fake.Reply{Status: 422, Body: `{"detail":"functions are not supported by this model"}`}, true, providers.ErrProviderRejectedTools, "functions are not supported"},
		{"tool words without tools", fake.Reply{Status: 400, Body: `{"error":"does not support tools"}`}, false, providers.ErrProviderError, "does not support tools"},
		{"bad request", fake.Reply{Status: 400, Error: &fake.APIError{Message: "Invalid value for 'temperature'", Param: "temperature"}}, true, providers.ErrProviderError, "temperature"},
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

func TestFixtureStreamErrorMidStream(t *testing.T) {
	srv := fake.NewServer(t)
	srv.Enqueue(fake.Fixture(t, "openai-chat/stream_error.stream.http"), fake.Reply{Text: "must not be reached"})
	c, _ := newTestClient(srv)
	sink := &recSink{}
	_, err := c.Complete(context.Background(), userRequest(true), sink)
	pe := mustProviderError(t, err, providers.ErrProviderError)
	if pe.Message != "The server had an error while processing your request. Sorry about that!" {
		t.Fatalf("message %q", pe.Message)
	}
	if strings.Join(sink.text, "") != "Hello! How" || len(srv.Requests()) != 1 {
		t.Fatalf("deltas %q, %d requests", sink.text, len(srv.Requests()))
	}
}

func TestStreamFaults(t *testing.T) {
	for _, tt := range []struct {
		name     string
		steps    []fake.Step
		noDone   bool
		contains string
		cut      bool
	}{
		{"cut after output", []fake.Step{{Text: "Hel"}, {Text: "lo"}, {Cut: true}}, false, "stream was cut", true},
		{"ended early", []fake.Step{{Text: "Hel"}}, true, "stream ended early", true},
		{"malformed chunk", []fake.Step{{Text: "Hel"}, {Raw: "data: {\"id\":\"x\",\"choices\":[{\"delta\":{\"content\":\"oops\"\n\n"}}, false, "stream event 3 is not valid JSON", false},
		{"error envelope", []fake.Step{{Text: "a"}, {Error: &fake.APIError{Message: "Something broke", Type: "server_error"}}}, false, "Something broke", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := fake.NewServer(t)
			srv.Enqueue(fake.Reply{Steps: tt.steps, NoDone: tt.noDone}, fake.Reply{Text: "must not be reached"})
			c, _ := newTestClient(srv)
			sink := &recSink{}
			_, err := c.Complete(context.Background(), userRequest(true), sink)
			pe := mustProviderError(t, err, providers.ErrProviderError)
			if !strings.Contains(pe.Message, tt.contains) {
				t.Fatalf("message %q, want %q", pe.Message, tt.contains)
			}
			if errors.Is(err, providers.ErrStreamCut) != tt.cut {
				t.Fatalf("ErrStreamCut = %v, want %v", !tt.cut, tt.cut)
			}
			if strings.Contains(pe.Message, "oops") {
				t.Fatalf("message shows the raw chunk: %q", pe.Message)
			}
			if len(srv.Requests()) != 1 {
				t.Fatalf("retried after output was delivered: %d requests", len(srv.Requests()))
			}
		})
	}
}

func TestStreamCutBeforeOutputIsRetried(t *testing.T) {
	srv := fake.NewServer(t)
	srv.Enqueue(fake.Reply{Steps: []fake.Step{{Cut: true}}}, fake.Reply{Text: "second try", Chunks: 2})
	c, slept := newTestClient(srv)
	sink := &recSink{}
	resp, err := c.Complete(context.Background(), userRequest(true), sink)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Text() != "second try" || len(*slept) != 1 || !strings.Contains(sink.retries[0].reason, "stream was cut") {
		t.Fatalf("text %q slept %v retries %+v", resp.Message.Text(), *slept, sink.retries)
	}
}

func TestCancelWhileWaitingForRetry(t *testing.T) {
	srv := fake.NewServer(t)
	srv.Enqueue(fake.Reply{Status: 429, Headers: map[string]string{"Retry-After": "3600"}, Error: &fake.APIError{Message: "slow down"}}, fake.Reply{Text: "late"})
	c := New(providers.Config{BaseURL: srv.URL, APIKey: testKey}) // real timer
	ctx, cancel := context.WithCancel(context.Background())
	sink := &recSink{onRetry: cancel}
	_, err := c.Complete(ctx, userRequest(true), sink)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	mustProviderError(t, err, providers.ErrProviderError)
	if len(sink.retries) != 1 || sink.retries[0].wait != time.Minute || len(srv.Requests()) != 1 {
		t.Fatalf("retries %+v (Retry-After capped at MaxDelay), %d requests", sink.retries, len(srv.Requests()))
	}
}

// cancelOnText cancels the request as soon as the first text arrives.
type cancelOnText struct {
	recSink
	cancel context.CancelFunc
}

func (s *cancelOnText) TextDelta(t string) {
	s.recSink.TextDelta(t)
	s.cancel()
}

func TestCancelMidStream(t *testing.T) {
	srv := fake.NewServer(t)
	srv.Enqueue(fake.Reply{Steps: []fake.Step{{Text: "first"}, {Hang: true}}})
	c, _ := newTestClient(srv)
	ctx, cancel := context.WithCancel(context.Background())
	sink := &cancelOnText{cancel: cancel}
	_, err := c.Complete(ctx, userRequest(true), sink)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if strings.Join(sink.text, "") != "first" {
		t.Fatalf("text %q", sink.text)
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

func TestScriptedReplies(t *testing.T) {
	calls := []fake.ToolCall{
		{ID: "call_a", Name: "read_file", Arguments: `{"path":"a.txt","lines":[1,2,3]}`},
		{ID: "call_b", Name: "web_search", Arguments: `{"query":"héllo wörld"}`},
		{Name: "no_id_given", Arguments: `{}`},
	}
	want := []providers.ToolCall{
		{ID: "call_a", Name: "read_file", Arguments: calls[0].Arguments},
		{ID: "call_b", Name: "web_search", Arguments: calls[1].Arguments},
		{ID: "call_2", Name: "no_id_given", Arguments: `{}`},
	}
	for _, stream := range []bool{true, false} {
		t.Run(map[bool]string{true: "stream", false: "json"}[stream], func(t *testing.T) {
			srv := fake.NewServer(t)
			srv.Enqueue(fake.Reply{
				Reasoning: "Let me think about it.", Text: "Calling tools.", Chunks: 4, Interleave: true, ToolCalls: calls,
				Usage: &fake.Usage{InputTokens: 100, OutputTokens: 40, CachedTokens: 64, ReasoningTokens: 12},
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
			if *parts[0].Reasoning != (providers.Reasoning{Protocol: providers.ProtocolOpenAI, Text: "Let me think about it."}) {
				t.Fatalf("reasoning %+v", parts[0].Reasoning)
			}
			if !reflect.DeepEqual(resp.Message.ToolCalls(), want) {
				t.Fatalf("calls %+v\nwant %+v", resp.Message.ToolCalls(), want)
			}
			wantUsage := providers.Usage{InputTokens: 100, OutputTokens: 40, CachedTokens: 64, ReasoningTokens: 12}
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
		"tool_calls": providers.FinishToolCalls, "function_call": providers.FinishToolCalls, "eos": providers.FinishOther,
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

func TestKeyNeverInErrors(t *testing.T) {
	replies := []fake.Reply{
		{Status: 401, Body: `{"error":{"message":"bad key ` + testKey + `"}}`},
		{Status: 400, Body: `{"error":"` + testKey + `"}`},
		{Steps: []fake.Step{{Error: &fake.APIError{Message: "key " + testKey + " revoked"}}}},
		{Status: 500, Body: `<html>` + testKey + `</html>`},
	}
	for i, r := range replies {
		srv := fake.NewServer(t)
		srv.Enqueue(r)
		c, _ := newTestClient(srv, func(cfg *providers.Config) { cfg.Retry.MaxRetries = -1 })
		sink := &recSink{}
		_, err := c.Complete(context.Background(), userRequest(true), sink)
		if err == nil {
			t.Fatalf("reply %d: no error", i)
		}
		pe := providers.AsError(err)
		if strings.Contains(err.Error(), testKey) || strings.Contains(pe.Message, testKey) {
			t.Fatalf("reply %d: error leaks the key: %v", i, err)
		}
	}
	// A connection failure names the host, never the key.
	c := New(providers.Config{BaseURL: "http://127.0.0.1:1", APIKey: testKey, Retry: providers.RetryPolicy{MaxRetries: -1}})
	_, err := c.Complete(context.Background(), userRequest(false), nil)
	if err == nil || strings.Contains(err.Error(), testKey) || !strings.Contains(err.Error(), "cannot reach 127.0.0.1:1") {
		t.Fatalf("err = %v", err)
	}
}
