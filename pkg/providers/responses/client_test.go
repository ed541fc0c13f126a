package responses

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
	if p := New(providers.Config{}).Protocol(); p != providers.ProtocolOpenAIResponses {
		t.Fatalf("protocol %q", p)
	}
}

const unicorn = "In a peaceful grove beneath a silver moon, a unicorn named Lumina discovered a hidden pool that reflected the stars. As she dipped her horn into the water, the pool began to shimmer, revealing a pathway to a magical realm of endless night skies. Filled with wonder, Lumina whispered a wish for all who dream to find their own hidden magic, and as she glanced back, her hoofprints sparkled like stardust."

func TestFixtureScenarios(t *testing.T) {
	boston := []providers.ToolCall{{ID: "call_unLAR8MvFNptuiZK6K6HCy5k", Name: "get_current_weather", Arguments: `{"location":"Boston, MA","unit":"celsius"}`}}
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
		{fixture: "openai-responses/text.json.http", text: unicorn, finish: providers.FinishStop,
			usage: providers.Usage{InputTokens: 36, OutputTokens: 87}, model: "gpt-5.4"},
		{fixture: "openai-responses/text.stream.http", stream: true, text: "Hi there! How can I assist you today?",
			deltas: []string{"Hi", " there", "!", " How", " can", " I", " assist", " you", " today", "?"}, finish: providers.FinishStop,
			usage: providers.Usage{InputTokens: 37, OutputTokens: 11}, model: "gpt-5-2025-08-07"},
		{fixture: "openai-responses/function_call.json.http", calls: boston, finish: providers.FinishToolCalls,
			usage: providers.Usage{InputTokens: 291, OutputTokens: 23}, model: "gpt-5.4"},
		{fixture: "openai-responses/function_call.stream.http", stream: true,
			reasoning: []providers.Reasoning{{
				Protocol: providers.ProtocolOpenAIResponses, ID: "rs_68a1c9b3a1c48190b6f0a9e8d7c6b5a4",
				Text:      "**Checking the weather**\n\nThe user wants the weather in Boston; I'll call get_current_weather with celsius.",
				Encrypted: "gAAAAABoocm1harness-encrypted-reasoning-0001-Zm9vYmFyYmF6cXV4",
			}},
			calls: boston, finish: providers.FinishToolCalls,
			usage: providers.Usage{InputTokens: 291, OutputTokens: 87, ReasoningTokens: 64}, model: "gpt-5-2025-08-07"},
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
			if resp.Message.Text() != tt.text || !reflect.DeepEqual(sink.text, tt.deltas) {
				t.Errorf("text %q deltas %q, want %q %q", resp.Message.Text(), sink.text, tt.text, tt.deltas)
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

func TestFixtureRetries(t *testing.T) {
	for _, tt := range []struct {
		fixture string
		wait    time.Duration
		reason  string
	}{
		{"openai-responses/rate_limit.http", 2 * time.Second, "rate_limited (HTTP 429): Rate limit reached for gpt-5"},
		{"openai-responses/server_error.http", time.Second, "provider_error (HTTP 500): The server had an error"},
		// An error event before any output: nothing was delivered, so the
		// same request may be sent again.
		{"openai-responses/error_event.stream.http", time.Second, "rate_limited: Rate limit reached. Please try again in 2s."},
	} {
		t.Run(tt.fixture, func(t *testing.T) {
			srv := fake.NewServer(t)
			srv.Enqueue(fake.Fixture(t, tt.fixture), fake.Fixture(t, "openai-responses/text.stream.http"))
			c, slept := newTestClient(srv)
			sink := &recSink{}
			resp, err := c.Complete(context.Background(), userRequest(true), sink)
			if err != nil {
				t.Fatal(err)
			}
			if resp.Message.Text() == "" || len(srv.Requests()) != 2 {
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

func TestFixtureFailed(t *testing.T) {
	srv := fake.NewServer(t)
	srv.Enqueue(fake.Fixture(t, "openai-responses/failed.stream.http"), fake.Reply{Text: "must not be reached"})
	c, _ := newTestClient(srv)
	_, err := c.Complete(context.Background(), userRequest(true), &recSink{})
	pe := mustProviderError(t, err, providers.ErrProviderError)
	if pe.Message != "The model failed to generate a response." || len(srv.Requests()) != 1 {
		t.Fatalf("message %q after %d requests", pe.Message, len(srv.Requests()))
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
		{"auth", fake.Reply{Status: 401, Error: &fake.APIError{Message: "Incorrect API key provided: " + testKey, Code: "invalid_api_key"}}, false, providers.ErrAuthFailed, "Incorrect API key provided: [redacted]"},
		{"model", fake.Reply{Status: 404, Error: &fake.APIError{Message: "The model `gpt-9` does not exist or you do not have access to it.", Code: "model_not_found"}}, true, providers.ErrModelNotFound, "gpt-9"},
		{"context", fake.Reply{Status: 400, Error: &fake.APIError{Message: "Your input exceeds the context window of this model.", Code: "context_length_exceeded"}}, true, providers.ErrContextOverflow, "context window"},
		{"tools", fake.Reply{Status: 400, Error: &fake.APIError{Message: "Invalid schema for function 'f': 'object' is not valid", Param: "tools[0].parameters"}}, true, providers.ErrProviderRejectedTools, "Invalid schema for function"},
		{"encrypted content refused", fake.Reply{Status: 400, Error: &fake.APIError{Message: "Encrypted content is not supported with this model.", Param: "include"}}, false, providers.ErrProviderError, "Encrypted content"},
		{"quota", fake.Reply{Status: 429, Error: &fake.APIError{Message: "You exceeded your current quota", Code: "insufficient_quota"}}, false, providers.ErrRateLimited, "current quota"},
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
		{ID: "call_a", Name: "read_file", Arguments: `{"path":"a.txt","lines":[1,2,3]}`},
		{ID: "call_b", Name: "web_search", Arguments: `{"query":"héllo wörld"}`},
		{ID: "call_c", Name: "no_args", Arguments: `{}`},
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
			want := providers.Reasoning{Protocol: providers.ProtocolOpenAIResponses, Text: "Let me think about it.", ID: fake.ReasoningItemID(1, 0), Encrypted: fake.EncryptedReasoning(1, 0)}
			if *parts[0].Reasoning != want {
				t.Fatalf("reasoning %+v", parts[0].Reasoning)
			}
			for i, c := range resp.Message.ToolCalls() {
				if c != (providers.ToolCall{ID: calls[i].ID, Name: calls[i].Name, Arguments: calls[i].Arguments}) {
					t.Fatalf("call %d %+v", i, c)
				}
			}
			wantUsage := providers.Usage{InputTokens: 100, OutputTokens: 40, CachedTokens: 64, ReasoningTokens: 12}
			if resp.FinishReason != providers.FinishToolCalls || resp.Usage != wantUsage || resp.Model != "served-model" {
				t.Fatalf("finish %s usage %+v model %s", resp.FinishReason, resp.Usage, resp.Model)
			}
			if stream && (len(sink.text) != 4 || strings.Join(sink.reasoning, "") != "Let me think about it.") {
				t.Fatalf("deltas text %q reasoning %q", sink.text, sink.reasoning)
			}
		})
	}
}

func TestFinishReasons(t *testing.T) {
	for wire, want := range map[string]providers.FinishReason{
		"stop": providers.FinishStop, "length": providers.FinishLength, "content_filter": providers.FinishContentFilter,
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

func TestCutStream(t *testing.T) {
	srv := fake.NewServer(t)
	srv.Enqueue(
		fake.Reply{Steps: []fake.Step{{Cut: true}}},
		fake.Reply{Steps: []fake.Step{{Text: "Hel"}, {Cut: true}}},
	)
	c, _ := newTestClient(srv)
	sink := &recSink{}
	_, err := c.Complete(context.Background(), userRequest(true), sink)
	mustProviderError(t, err, providers.ErrProviderError)
	if !errors.Is(err, providers.ErrStreamCut) || len(srv.Requests()) != 2 || strings.Join(sink.text, "") != "Hel" {
		t.Fatalf("err %v after %d requests, deltas %q", err, len(srv.Requests()), sink.text)
	}
}

func TestKeyNeverInErrors(t *testing.T) {
	replies := []fake.Reply{
		{Status: 401, Body: `{"error":{"message":"bad key ` + testKey + `"}}`},
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
	for _, tt := range []struct {
		name    string
		cfg     func(*providers.Config)
		path    string
		query   string
		headers map[string]string
	}{
		{"bearer", nil, "/responses", "", map[string]string{"Authorization": "Bearer " + testKey, "Accept": "text/event-stream"}},
		{"azure", func(c *providers.Config) {
			c.BaseURL += "/openai/v1/"
			c.AuthHeader = "api-key"
			c.Query = map[string]string{"api-version": "preview"}
		}, "/openai/v1/responses", "api-version=preview", map[string]string{"Api-Key": testKey}},
	} {
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
			if got.Path != tt.path || got.Query != tt.query {
				t.Fatalf("%s?%s, want %s?%s", got.Path, got.Query, tt.path, tt.query)
			}
			for k, v := range tt.headers {
				if got.Header.Get(k) != v {
					t.Errorf("header %s = %q, want %q", k, got.Header.Get(k), v)
				}
			}
		})
	}
	if got, err := endpoint("", nil); err != nil || got != "https://api.openai.com/v1/responses" {
		t.Fatalf("default endpoint %q %v", got, err)
	}
	_, err := New(providers.Config{BaseURL: "nope"}).Complete(context.Background(), userRequest(false), nil)
	mustProviderError(t, err, providers.ErrProviderError)
}
