package gemini

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
	if c.Protocol() != providers.ProtocolGemini || !c.RequiresActiveChain() {
		t.Fatalf("protocol %q, requires chain %v", c.Protocol(), c.RequiresActiveChain())
	}
}

const planning = "**Planning the lookup**\n\nThe user asks for the weather in Boston and Paris; I'll call get_weather for both."

const fixtureSig = "CiQBcsjafH7vz8jxNNpQ0k1nJY2b3HarnessThoughtSig0001AAAAAQ=="

func TestFixtureScenarios(t *testing.T) {
	weatherCalls := []providers.ToolCall{
		{Name: "get_weather", Arguments: `{"location":"Boston, MA"}`, Signature: fixtureSig},
		{Name: "get_weather", Arguments: `{"location":"Paris, France"}`},
	}
	legacy := []string{
		"In the quaint, sunlit cottage nestled amidst a lush meadow, resided two feline",
		" companions named Mittens and Whiskers.",
	}
	tests := []struct {
		fixture   string
		stream    bool
		text      string
		deltas    []string
		reasoning string
		calls     []providers.ToolCall
		finish    providers.FinishReason
		usage     providers.Usage
		model     string
	}{
		{fixture: "gemini/text.json.http", text: "Hello! How can I help you today?", finish: providers.FinishStop,
			usage: providers.Usage{InputTokens: 5, OutputTokens: 9}, model: "gemini-2.5-flash"},
		{fixture: "gemini/text.stream.http", stream: true, text: "Hello! How can I help you today?", deltas: []string{"Hello", "! How can I help you", " today?"},
			finish: providers.FinishStop, usage: providers.Usage{InputTokens: 5, OutputTokens: 9}, model: "gemini-2.5-flash"},
		{fixture: "gemini/legacy_text.stream.http", stream: true, text: legacy[0], finish: providers.FinishStop},
		{fixture: "gemini/function_call.json.http", reasoning: planning, calls: weatherCalls, finish: providers.FinishToolCalls,
			usage: providers.Usage{InputTokens: 48, OutputTokens: 67, ReasoningTokens: 41}, model: "gemini-2.5-flash"},
		{fixture: "gemini/function_call.stream.http", stream: true, reasoning: planning, calls: weatherCalls, finish: providers.FinishToolCalls,
			usage: providers.Usage{InputTokens: 48, OutputTokens: 67, ReasoningTokens: 41}, model: "gemini-2.5-flash"},
	}
	var ids [][]string
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			req := codec.Request(tt.stream)
			req.Tools = []providers.ToolSpec{codec.WeatherTool()}
			resp, sink := codec.Play(t, req, fake.Fixture(t, tt.fixture))
			got := resp.Message.Text()
			if strings.Contains(tt.fixture, "legacy") {
				// A recorded story: check its start and that deltas add up.
				if !strings.HasPrefix(got, tt.text) || len(sink.Text) != 6 || !strings.HasPrefix(sink.Text[1], legacy[1]) {
					t.Errorf("text %q deltas %d", got, len(sink.Text))
				}
			} else {
				if got != tt.text {
					t.Errorf("text %q, want %q", got, tt.text)
				}
				if !reflect.DeepEqual(sink.Text, tt.deltas) {
					t.Errorf("deltas %q, want %q", sink.Text, tt.deltas)
				}
			}
			if tt.stream && strings.Join(sink.Text, "") != got {
				t.Errorf("deltas do not add up to the text")
			}
			var reasoning string
			for _, p := range resp.Message.Parts {
				if p.Type == providers.PartReasoning {
					reasoning += p.Reasoning.Text
					if p.Reasoning.Protocol != providers.ProtocolGemini {
						t.Errorf("reasoning protocol %q", p.Reasoning.Protocol)
					}
				}
			}
			if reasoning != tt.reasoning || (tt.stream && strings.Join(sink.Reasoning, "") != tt.reasoning) {
				t.Errorf("reasoning %q deltas %q, want %q", reasoning, sink.Reasoning, tt.reasoning)
			}
			calls := resp.Message.ToolCalls()
			var callIDs []string
			for i := range calls {
				if !strings.HasPrefix(calls[i].ID, synthPrefix) {
					t.Errorf("call id %q not made up by tavo", calls[i].ID)
				}
				callIDs = append(callIDs, calls[i].ID)
				calls[i].ID = ""
			}
			if len(callIDs) > 0 {
				ids = append(ids, callIDs)
			}
			if !reflect.DeepEqual(calls, tt.calls) {
				t.Errorf("calls %+v\nwant %+v", calls, tt.calls)
			}
			providertest.CheckEnd(t, resp, tt.finish, tt.usage, tt.model)
		})
	}
	// The same response gets the same made-up ids, streamed or not, and its
	// calls get different ones.
	if len(ids) == 2 && (!reflect.DeepEqual(ids[0], ids[1]) || ids[0][0] == ids[0][1]) {
		t.Errorf("made-up ids %v", ids)
	}
}

func TestFixtureRetries(t *testing.T) {
	providertest.FixtureRetries(t, codec, "gemini/text.stream.http", "", []providertest.RetryCase{
		{Fixture: "gemini/rate_limit.http", Wait: 13458185339 * time.Nanosecond, Reason: "rate_limited (HTTP 429): You exceeded your current quota"},
		{Fixture: "gemini/overloaded.http", Wait: time.Second, Reason: "overloaded (HTTP 503): The model is overloaded."},
		{Fixture: "gemini/server_error.http", Wait: time.Second, Reason: "provider_error (HTTP 500): An internal error has occurred."},
	})
}

func TestScriptedRetryAfterReachesRetryInfo(t *testing.T) {
	srv := fake.NewServer(t)
	srv.Enqueue(fake.Reply{Status: 429, Headers: map[string]string{"Retry-After": "3"}, Error: &fake.APIError{Message: "Resource has been exhausted"}}, fake.Reply{Text: "ok"})
	c, slept := newTestClient(srv)
	if _, err := c.Complete(context.Background(), codec.Request(false), &providertest.Sink{}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*slept, []time.Duration{3 * time.Second}) {
		t.Fatalf("slept %v, want the RetryInfo delay", *slept)
	}
}

func TestErrorsNotRetried(t *testing.T) {
	providertest.ErrorsNotRetried(t, codec, []providertest.ErrorCase{
		{Name: "bad key 400", Reply: fake.Reply{Status: 400, Body: `{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com"}]}}`}, Tools: true, Code: providers.ErrAuthFailed, Contains: "API key not valid"},
		{Name: "permission", Reply: fake.Reply{Status: 403, Error: &fake.APIError{Message: "Method doesn't allow unregistered callers"}}, Code: providers.ErrAuthFailed, Contains: "unregistered callers"},
		{Name: "model", Reply: fake.Reply{Status: 404, Error: &fake.APIError{Message: "models/gemini-9 is not found for API version v1beta, or is not supported for generateContent."}}, Tools: true, Code: providers.ErrModelNotFound, Contains: "gemini-9"},
		{Name: "context", Reply: fake.Reply{Status: 400, Error: &fake.APIError{Message: "The input token count (1290234) exceeds the maximum number of tokens allowed (1048576)."}}, Tools: true, Code: providers.ErrContextOverflow, Contains: "exceeds the maximum number of tokens"},
		{Name: "tools", Reply: fake.Reply{Status: 400, Error: &fake.APIError{Message: "* GenerateContentRequest.tools[0].function_declarations[2].parameters.properties: should be non-empty for OBJECT type"}}, Tools: true, Code: providers.ErrProviderRejectedTools, Contains: "function_declarations[2]"},
		{Name: "unknown field in tools", Reply: fake.Reply{Status: 400, Error: &fake.APIError{Message: `Invalid JSON payload received. Unknown name "exclusiveMinimum" at 'tools[0].function_declarations[9].parameters.properties[0].value': Cannot find field.`}}, Tools: true, Code: providers.ErrProviderRejectedTools, Contains: "exclusiveMinimum"},
		{Name: "tool words without tools", Reply: fake.Reply{Status: 400, Error: &fake.APIError{Message: "tools[0] bad"}}, Code: providers.ErrProviderError, Contains: "tools[0]"},
		{Name: "location", Reply: fake.Reply{Status: 400, Error: &fake.APIError{Message: "User location is not supported for the API use.", Code: "FAILED_PRECONDITION"}}, Tools: true, Code: providers.ErrProviderError, Contains: "location"},
	})
}

func TestRetriesExhausted(t *testing.T) {
	srv := fake.NewServer(t)
	for range 3 {
		srv.Enqueue(fake.Reply{Status: 503, Error: &fake.APIError{Message: "The model is overloaded. Please try again later."}})
	}
	c, slept := newTestClient(srv, func(cfg *providers.Config) { cfg.Retry.MaxRetries = 2 })
	_, err := c.Complete(context.Background(), codec.Request(true), &providertest.Sink{})
	pe := providertest.MustError(t, err, providers.ErrOverloaded, testKey)
	if len(srv.Requests()) != 3 || len(*slept) != 2 || !strings.HasSuffix(pe.Message, "(gave up after 2 retries)") {
		t.Fatalf("%d requests, slept %v, message %q", len(srv.Requests()), *slept, pe.Message)
	}
}

func TestScriptedReplies(t *testing.T) {
	calls := []fake.ToolCall{
		{Name: "read_file", Arguments: `{"path":"a.txt","lines":[1,2,3]}`},
		{Name: "web_search", Arguments: `{"query":"héllo wörld"}`},
		{Name: "no_args", Arguments: ``},
	}
	usage := providers.Usage{InputTokens: 100, OutputTokens: 40, CachedTokens: 64, ReasoningTokens: 12}
	reasoning := providers.Reasoning{Protocol: providers.ProtocolGemini, Text: "Let me think about it."}
	providertest.ScriptedReplies(t, codec, reasoning, calls, usage, func(t *testing.T, stream bool, resp *providers.Response, sink *providertest.Sink) {
		wantArgs := []string{calls[0].Arguments, calls[1].Arguments, "{}"}
		for i, c := range resp.Message.ToolCalls() {
			if c.Name != calls[i].Name || c.Arguments != wantArgs[i] || (i == 0) != (c.Signature == fake.ThoughtSignature(1)) {
				t.Fatalf("call %d %+v", i, c)
			}
		}
	})
}

func TestFinishReasons(t *testing.T) {
	providertest.FinishReasons(t, codec, map[string]providers.FinishReason{
		"stop": providers.FinishStop, "length": providers.FinishLength, "content_filter": providers.FinishContentFilter,
		"RECITATION": providers.FinishContentFilter, "MALFORMED_FUNCTION_CALL": providers.FinishOther,
	})
}

func TestCutStream(t *testing.T) {
	providertest.CutStream(t, codec)
}

func TestKeyNeverInErrors(t *testing.T) {
	replies := []fake.Reply{
		{Status: 400, Body: `{"error":{"code":400,"message":"API key ` + testKey + ` not valid","status":"INVALID_ARGUMENT"}}`},
		{Steps: []fake.Step{{Error: &fake.APIError{Message: "key " + testKey + " revoked"}}}},
		{Status: 500, Body: `<html>` + testKey + `</html>`},
	}
	providertest.KeyNeverInErrors(t, codec, replies)
}

func TestHeadersAndURL(t *testing.T) {
	tests := []struct {
		name    string
		cfg     func(*providers.Config)
		model   string
		stream  bool
		path    string
		query   string
		headers map[string]string
	}{
		{"stream", nil, "gemini-2.5-flash", true, "/v1beta/models/gemini-2.5-flash:streamGenerateContent", "alt=sse", map[string]string{"X-Goog-Api-Key": testKey, "Accept": "text/event-stream"}},
		{"json", nil, "gemini-2.5-flash", false, "/v1beta/models/gemini-2.5-flash:generateContent", "", map[string]string{"Content-Type": "application/json"}},
		{"model path and v1 base", func(c *providers.Config) { c.BaseURL += "/v1" }, "tunedModels/mine", false, "/v1/tunedModels/mine:generateContent", "", nil},
		{"models/ prefix, extra query", func(c *providers.Config) { c.Query = map[string]string{"x": "1"} }, "models/gemini-2.5-pro", true, "/v1beta/models/gemini-2.5-pro:streamGenerateContent", "alt=sse&x=1", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := codec.Request(tt.stream)
			req.Model = tt.model
			got := codec.Sent(t, req, tt.cfg)
			if got.Path != tt.path || got.Query != tt.query {
				t.Fatalf("%s?%s, want %s?%s", got.Path, got.Query, tt.path, tt.query)
			}
			providertest.CheckHeaders(t, got.Header, tt.headers)
			if got.Header.Get("Authorization") != "" || strings.Contains(got.Query, testKey) {
				t.Error("the key went somewhere else than x-goog-api-key")
			}
		})
	}
	_, err := New(providers.Config{BaseURL: "::"}).Complete(context.Background(), codec.Request(false), nil)
	providertest.MustError(t, err, providers.ErrProviderError, testKey)
	req := codec.Request(false)
	req.Model = ""
	_, err = New(providers.Config{}).Complete(context.Background(), req, nil)
	if pe := providertest.MustError(t, err, providers.ErrProviderError, testKey); !strings.Contains(pe.Message, "needs a model") {
		t.Fatalf("message %q", pe.Message)
	}
}
