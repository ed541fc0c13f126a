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
	"github.com/tavo-cli/tavo/pkg/providers/providertest"
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
			req := codec.Request(tt.stream)
			req.Tools = []providers.ToolSpec{codec.WeatherTool()}
			resp, sink := codec.Play(t, req, fake.Fixture(t, tt.fixture))
			if resp.Message.Role != providers.RoleAssistant || resp.Message.Text() != tt.text {
				t.Errorf("text %q, want %q", resp.Message.Text(), tt.text)
			}
			if !reflect.DeepEqual(sink.Text, tt.deltas) {
				t.Errorf("deltas %q, want %q", sink.Text, tt.deltas)
			}
			if !reflect.DeepEqual(resp.Message.ToolCalls(), tt.calls) {
				t.Errorf("calls %+v\nwant %+v", resp.Message.ToolCalls(), tt.calls)
			}
			providertest.CheckEnd(t, resp, tt.finish, tt.usage, tt.model)
		})
	}
}

func TestFixtureRateLimitRetried(t *testing.T) {
	srv := fake.NewServer(t)
	srv.Enqueue(fake.Fixture(t, "openai-chat/rate_limit.http"), fake.Fixture(t, "openai-chat/text.stream-usage.http"))
	c, slept := newTestClient(srv)
	sink := &providertest.Sink{}
	resp, err := c.Complete(context.Background(), codec.Request(true), sink)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Text() != "Hello! How can I assist you today?" {
		t.Fatalf("text %q", resp.Message.Text())
	}
	if len(sink.Retries) != 1 || sink.Retries[0].Attempt != 1 || sink.Retries[0].Wait != 2*time.Second {
		t.Fatalf("retries %+v, want one announced with the Retry-After of 2s", sink.Retries)
	}
	if !strings.HasPrefix(sink.Retries[0].Reason, "rate_limited (HTTP 429): Rate limit reached for gpt-4.1") {
		t.Fatalf("reason %q", sink.Retries[0].Reason)
	}
	if !reflect.DeepEqual(*slept, []time.Duration{2 * time.Second}) {
		t.Fatalf("slept %v", *slept)
	}
}

func TestFixtureServerErrorRetriedThenSucceeds(t *testing.T) {
	srv := fake.NewServer(t)
	srv.Enqueue(fake.Fixture(t, "openai-chat/server_error.http"), fake.Fixture(t, "openai-chat/server_error.http"), fake.Fixture(t, "openai-chat/text.json.http"))
	c, slept := newTestClient(srv, func(cfg *providers.Config) { cfg.Retry = providers.RetryPolicy{BaseDelay: 10 * time.Millisecond} })
	sink := &providertest.Sink{}
	resp, err := c.Complete(context.Background(), codec.Request(false), sink)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Text() == "" || len(srv.Requests()) != 3 {
		t.Fatalf("text %q after %d requests", resp.Message.Text(), len(srv.Requests()))
	}
	if !reflect.DeepEqual(*slept, []time.Duration{10 * time.Millisecond, 20 * time.Millisecond}) {
		t.Fatalf("slept %v, want doubling backoff", *slept)
	}
	if sink.Retries[1].Reason != "provider_error (HTTP 500): The server had an error while processing your request. Sorry about that!" {
		t.Fatalf("reason %q", sink.Retries[1].Reason)
	}
}

func TestRetriesExhausted(t *testing.T) {
	providertest.RetriesExhausted(t, codec, []providertest.ExhaustCase{
		{Name: "429", Reply: fake.Reply{Status: 429, Error: &fake.APIError{Message: "Rate limit reached", Code: "rate_limit_exceeded"}}, Code: providers.ErrRateLimited},
		{Name: "503", Reply: fake.Reply{Status: 503, Error: &fake.APIError{Message: "The engine is currently overloaded"}}, Code: providers.ErrOverloaded},
		{Name: "529", Reply: fake.Reply{Status: 529, Error: &fake.APIError{Message: "Overloaded"}}, Code: providers.ErrOverloaded},
		{Name: "502 html", Reply: fake.Reply{Status: 502, Body: "<html><body><h1>502 Bad Gateway</h1></body></html>", Headers: map[string]string{"Content-Type": "text/html"}}, Code: providers.ErrProviderError},
	})
}

func TestErrorsNotRetried(t *testing.T) {
	providertest.ErrorsNotRetried(t, codec, []providertest.ErrorCase{
		{Name: "auth", Reply: fake.Reply{Status: 401, Error: &fake.APIError{Message: "Incorrect API key provided: " + testKey + ". You can find your API key at https://platform.openai.com/account/api-keys.", Code: "invalid_api_key"}}, Code: providers.ErrAuthFailed, Contains: "Incorrect API key provided: [redacted]"},
		{Name: "forbidden", Reply: fake.Reply{Status: 403, Error: &fake.APIError{Message: "Project does not have access"}}, Code: providers.ErrAuthFailed, Contains: "does not have access"},
		{Name: "model", Reply: fake.Reply{Status: 404, Error: &fake.APIError{Message: "The model `gpt-9` does not exist or you do not have access to it.", Code: "model_not_found"}}, Tools: true, Code: providers.ErrModelNotFound, Contains: "gpt-9"},
		{Name: "model code on 400", Reply: fake.Reply{Status: 400, Error: &fake.APIError{Message: "unknown model", Code: "model_not_found"}}, Code: providers.ErrModelNotFound, Contains: "unknown model"},
		{Name: "ollama model", Reply: fake.Reply{Status: 404, Body: `{"error":"model \"llama9\" not found, try pulling it first"}`}, Code: providers.ErrModelNotFound, Contains: "try pulling it first"},
		{Name: "quota", Reply: fake.Reply{Status: 429, Error: &fake.APIError{Message: "You exceeded your current quota", Code: "insufficient_quota", Type: "insufficient_quota"}}, Code: providers.ErrRateLimited, Contains: "current quota"},
		{Name: "context", Reply: fake.Reply{Status: 400, Error: &fake.APIError{Message: "This model's maximum context length is 128000 tokens.", Code: "context_length_exceeded"}}, Tools: true, Code: providers.ErrContextOverflow, Contains: "maximum context length"},
		{Name: "context no code", Reply: fake.Reply{Status: 400, Body: `{"object":"error","message":"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens","type":"BadRequestError","code":400}`}, Code: providers.ErrContextOverflow, Contains: "4096"},
		{Name: "context 413", Reply: fake.Reply{Status: 413, Body: `{"error":{"message":"Request too large: too many tokens"}}`}, Code: providers.ErrContextOverflow, Contains: "too many tokens"},
		{Name: "ollama tools", Reply: fake.Reply{Status: 400, Body: `{"error":"registry.ollama.ai/library/gemma:2b does not support tools"}`}, Tools: true, Code: providers.ErrProviderRejectedTools, Contains: "does not support tools"},
		{Name: "vllm tools", Reply: fake.Reply{Status: 400, Body: `{"object":"error","message":"\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set","type":"BadRequestError","param":null,"code":400}`}, Tools: true, Code: providers.ErrProviderRejectedTools, Contains: "--enable-auto-tool-choice"},
		{Name: "tools 422", Reply: fake.Reply{Status: 422, Body: `{"detail":"functions are not supported by this model"}`}, Tools: true, Code: providers.ErrProviderRejectedTools, Contains: "functions are not supported"},
		{Name: "tool words without tools", Reply: fake.Reply{Status: 400, Body: `{"error":"does not support tools"}`}, Code: providers.ErrProviderError, Contains: "does not support tools"},
		{Name: "bad request", Reply: fake.Reply{Status: 400, Error: &fake.APIError{Message: "Invalid value for 'temperature'", Param: "temperature"}}, Tools: true, Code: providers.ErrProviderError, Contains: "temperature"},
	})
}

func TestFixtureStreamErrorMidStream(t *testing.T) {
	srv := fake.NewServer(t)
	srv.Enqueue(fake.Fixture(t, "openai-chat/stream_error.stream.http"), fake.Reply{Text: "must not be reached"})
	c, _ := newTestClient(srv)
	sink := &providertest.Sink{}
	_, err := c.Complete(context.Background(), codec.Request(true), sink)
	pe := providertest.MustError(t, err, providers.ErrProviderError, testKey)
	if pe.Message != "The server had an error while processing your request. Sorry about that!" {
		t.Fatalf("message %q", pe.Message)
	}
	if strings.Join(sink.Text, "") != "Hello! How" || len(srv.Requests()) != 1 {
		t.Fatalf("deltas %q, %d requests", sink.Text, len(srv.Requests()))
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
			sink := &providertest.Sink{}
			_, err := c.Complete(context.Background(), codec.Request(true), sink)
			pe := providertest.MustError(t, err, providers.ErrProviderError, testKey)
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
	sink := &providertest.Sink{}
	resp, err := c.Complete(context.Background(), codec.Request(true), sink)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Text() != "second try" || len(*slept) != 1 || !strings.Contains(sink.Retries[0].Reason, "stream was cut") {
		t.Fatalf("text %q slept %v retries %+v", resp.Message.Text(), *slept, sink.Retries)
	}
}

func TestCancelWhileWaitingForRetry(t *testing.T) {
	srv := fake.NewServer(t)
	srv.Enqueue(fake.Reply{Status: 429, Headers: map[string]string{"Retry-After": "3600"}, Error: &fake.APIError{Message: "slow down"}}, fake.Reply{Text: "late"})
	c := New(providers.Config{BaseURL: srv.URL, APIKey: testKey}) // real timer
	ctx, cancel := context.WithCancel(context.Background())
	sink := &providertest.Sink{OnRetry: cancel}
	_, err := c.Complete(ctx, codec.Request(true), sink)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	providertest.MustError(t, err, providers.ErrProviderError, testKey)
	if len(sink.Retries) != 1 || sink.Retries[0].Wait != time.Minute || len(srv.Requests()) != 1 {
		t.Fatalf("retries %+v (Retry-After capped at MaxDelay), %d requests", sink.Retries, len(srv.Requests()))
	}
}

// cancelOnText cancels the request as soon as the first text arrives.
type cancelOnText struct {
	providertest.Sink
	cancel context.CancelFunc
}

func (s *cancelOnText) TextDelta(t string) {
	s.Sink.TextDelta(t)
	s.cancel()
}

func TestCancelMidStream(t *testing.T) {
	srv := fake.NewServer(t)
	srv.Enqueue(fake.Reply{Steps: []fake.Step{{Text: "first"}, {Hang: true}}})
	c, _ := newTestClient(srv)
	ctx, cancel := context.WithCancel(context.Background())
	sink := &cancelOnText{cancel: cancel}
	_, err := c.Complete(ctx, codec.Request(true), sink)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if strings.Join(sink.Text, "") != "first" {
		t.Fatalf("text %q", sink.Text)
	}
}

func TestCancelDuringDelay(t *testing.T) {
	providertest.CancelledBeforeAnswer(t, codec)
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
	usage := providers.Usage{InputTokens: 100, OutputTokens: 40, CachedTokens: 64, ReasoningTokens: 12}
	reasoning := providers.Reasoning{Protocol: providers.ProtocolOpenAI, Text: "Let me think about it."}
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
		"tool_calls": providers.FinishToolCalls, "function_call": providers.FinishToolCalls, "eos": providers.FinishOther,
	})
}

func TestStreamRequestAnsweredWithJSON(t *testing.T) {
	providertest.StreamAnsweredWithJSON(t, codec)
}

func TestKeyNeverInErrors(t *testing.T) {
	replies := []fake.Reply{
		{Status: 401, Body: `{"error":{"message":"bad key ` + testKey + `"}}`},
		{Status: 400, Body: `{"error":"` + testKey + `"}`},
		{Steps: []fake.Step{{Error: &fake.APIError{Message: "key " + testKey + " revoked"}}}},
		{Status: 500, Body: `<html>` + testKey + `</html>`},
	}
	providertest.KeyNeverInErrors(t, codec, replies)
	// A connection failure names the host, never the key.
	c := New(providers.Config{BaseURL: "http://127.0.0.1:1", APIKey: testKey, Retry: providers.RetryPolicy{MaxRetries: -1}})
	_, err := c.Complete(context.Background(), codec.Request(false), nil)
	if err == nil || strings.Contains(err.Error(), testKey) || !strings.Contains(err.Error(), "cannot reach 127.0.0.1:1") {
		t.Fatalf("err = %v", err)
	}
}
