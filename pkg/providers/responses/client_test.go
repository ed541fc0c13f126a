package responses

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/fake"
	"github.com/tavo-cli/tavo/pkg/providers/providertest"
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
			req := codec.Request(tt.stream)
			req.Tools = []providers.ToolSpec{codec.WeatherTool()}
			resp, sink := codec.Play(t, req, fake.Fixture(t, tt.fixture))
			if resp.Message.Text() != tt.text || !reflect.DeepEqual(sink.Text, tt.deltas) {
				t.Errorf("text %q deltas %q, want %q %q", resp.Message.Text(), sink.Text, tt.text, tt.deltas)
			}
			providertest.CheckReasoning(t, resp.Message, sink, tt.stream, tt.reasoning)
			if !reflect.DeepEqual(resp.Message.ToolCalls(), tt.calls) {
				t.Errorf("calls %+v\nwant %+v", resp.Message.ToolCalls(), tt.calls)
			}
			providertest.CheckEnd(t, resp, tt.finish, tt.usage, tt.model)
		})
	}
}

func TestFixtureRetries(t *testing.T) {
	providertest.FixtureRetries(t, codec, "openai-responses/text.stream.http", "", []providertest.RetryCase{
		{Fixture: "openai-responses/rate_limit.http", Wait: 2 * time.Second, Reason: "rate_limited (HTTP 429): Rate limit reached for gpt-5"},
		{Fixture: "openai-responses/server_error.http", Wait: time.Second, Reason: "provider_error (HTTP 500): The server had an error"},
		// An error event before any output: nothing was delivered, so the
		// same request may be sent again, after the wait its message names
		// (the event has no headers).
		{Fixture: "openai-responses/error_event.stream.http", Wait: 2 * time.Second, Reason: "rate_limited: Rate limit reached. Please try again in 2s."},
	})
}

func TestFixtureFailed(t *testing.T) {
	srv := fake.NewServer(t)
	srv.Enqueue(fake.Fixture(t, "openai-responses/failed.stream.http"), fake.Reply{Text: "must not be reached"})
	c, _ := newTestClient(srv)
	_, err := c.Complete(context.Background(), codec.Request(true), &providertest.Sink{})
	pe := providertest.MustError(t, err, providers.ErrProviderError, testKey)
	if pe.Message != "The model failed to generate a response." || len(srv.Requests()) != 1 {
		t.Fatalf("message %q after %d requests", pe.Message, len(srv.Requests()))
	}
}

func TestErrorsNotRetried(t *testing.T) {
	providertest.ErrorsNotRetried(t, codec, []providertest.ErrorCase{
		{Name: "auth", Reply: fake.Reply{Status: 401, Error: &fake.APIError{Message: "Incorrect API key provided: " + testKey, Code: "invalid_api_key"}}, Code: providers.ErrAuthFailed, Contains: "Incorrect API key provided: [redacted]"},
		{Name: "model", Reply: fake.Reply{Status: 404, Error: &fake.APIError{Message: "The model `gpt-9` does not exist or you do not have access to it.", Code: "model_not_found"}}, Tools: true, Code: providers.ErrModelNotFound, Contains: "gpt-9"},
		{Name: "context", Reply: fake.Reply{Status: 400, Error: &fake.APIError{Message: "Your input exceeds the context window of this model.", Code: "context_length_exceeded"}}, Tools: true, Code: providers.ErrContextOverflow, Contains: "context window"},
		{Name: "tools", Reply: fake.Reply{Status: 400, Error: &fake.APIError{Message: "Invalid schema for function 'f': 'object' is not valid", Param: "tools[0].parameters"}}, Tools: true, Code: providers.ErrProviderRejectedTools, Contains: "Invalid schema for function"},
		{Name: "encrypted content refused", Reply: fake.Reply{Status: 400, Error: &fake.APIError{Message: "Encrypted content is not supported with this model.", Param: "include"}}, Code: providers.ErrProviderError, Contains: "Encrypted content"},
		{Name: "quota", Reply: fake.Reply{Status: 429, Error: &fake.APIError{Message: "You exceeded your current quota", Code: "insufficient_quota"}}, Code: providers.ErrRateLimited, Contains: "current quota"},
	})
}

func TestScriptedReplies(t *testing.T) {
	calls := []fake.ToolCall{
		{ID: "call_a", Name: "read_file", Arguments: `{"path":"a.txt","lines":[1,2,3]}`},
		{ID: "call_b", Name: "web_search", Arguments: `{"query":"héllo wörld"}`},
		{ID: "call_c", Name: "no_args", Arguments: `{}`},
	}
	usage := providers.Usage{InputTokens: 100, OutputTokens: 40, CachedTokens: 64, ReasoningTokens: 12}
	reasoning := providers.Reasoning{Protocol: providers.ProtocolOpenAIResponses, Text: "Let me think about it.", ID: fake.ReasoningItemID(1, 0), Encrypted: fake.EncryptedReasoning(1, 0)}
	providertest.ScriptedReplies(t, codec, reasoning, calls, usage, func(t *testing.T, stream bool, resp *providers.Response, sink *providertest.Sink) {
		for i, c := range resp.Message.ToolCalls() {
			if c != (providers.ToolCall{ID: calls[i].ID, Name: calls[i].Name, Arguments: calls[i].Arguments}) {
				t.Fatalf("call %d %+v", i, c)
			}
		}
	})
}

func TestFinishReasons(t *testing.T) {
	providertest.FinishReasons(t, codec, map[string]providers.FinishReason{
		"stop": providers.FinishStop, "length": providers.FinishLength, "content_filter": providers.FinishContentFilter,
	})
}

func TestCutStream(t *testing.T) {
	providertest.CutStream(t, codec)
}

func TestKeyNeverInErrors(t *testing.T) {
	replies := []fake.Reply{
		{Status: 401, Body: `{"error":{"message":"bad key ` + testKey + `"}}`},
		{Steps: []fake.Step{{Error: &fake.APIError{Message: "key " + testKey + " revoked"}}}},
		{Status: 500, Body: `<html>` + testKey + `</html>`},
	}
	providertest.KeyNeverInErrors(t, codec, replies)
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
			got := codec.Sent(t, codec.Request(true), tt.cfg)
			if got.Path != tt.path || got.Query != tt.query {
				t.Fatalf("%s?%s, want %s?%s", got.Path, got.Query, tt.path, tt.query)
			}
			providertest.CheckHeaders(t, got.Header, tt.headers)
		})
	}
	if got, err := endpoint("", nil); err != nil || got != "https://api.openai.com/v1/responses" {
		t.Fatalf("default endpoint %q %v", got, err)
	}
	_, err := New(providers.Config{BaseURL: "nope"}).Complete(context.Background(), codec.Request(false), nil)
	providertest.MustError(t, err, providers.ErrProviderError, testKey)
}
