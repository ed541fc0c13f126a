package gemini

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
			got := resp.Message.Text()
			if strings.Contains(tt.fixture, "legacy") {
				// A recorded story: check its start and that deltas add up.
				if !strings.HasPrefix(got, tt.text) || len(sink.text) != 6 || !strings.HasPrefix(sink.text[1], legacy[1]) {
					t.Errorf("text %q deltas %d", got, len(sink.text))
				}
			} else {
				if got != tt.text {
					t.Errorf("text %q, want %q", got, tt.text)
				}
				if !reflect.DeepEqual(sink.text, tt.deltas) {
					t.Errorf("deltas %q, want %q", sink.text, tt.deltas)
				}
			}
			if tt.stream && strings.Join(sink.text, "") != got {
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
			if reasoning != tt.reasoning || (tt.stream && strings.Join(sink.reasoning, "") != tt.reasoning) {
				t.Errorf("reasoning %q deltas %q, want %q", reasoning, sink.reasoning, tt.reasoning)
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
			if resp.FinishReason != tt.finish || resp.Usage != tt.usage || resp.Model != tt.model {
				t.Errorf("finish %s usage %+v model %q; want %s %+v %q", resp.FinishReason, resp.Usage, resp.Model, tt.finish, tt.usage, tt.model)
			}
		})
	}
	// The same response gets the same made-up ids, streamed or not, and its
	// calls get different ones.
	if len(ids) == 2 && (!reflect.DeepEqual(ids[0], ids[1]) || ids[0][0] == ids[0][1]) {
		t.Errorf("made-up ids %v", ids)
	}
}

func TestFixtureRetries(t *testing.T) {
	for _, tt := range []struct {
		fixture string
		wait    time.Duration
		reason  string
	}{
		{"gemini/rate_limit.http", 13458185339 * time.Nanosecond, "rate_limited (HTTP 429): You exceeded your current quota"},
		{"gemini/overloaded.http", time.Second, "overloaded (HTTP 503): The model is overloaded."},
		{"gemini/server_error.http", time.Second, "provider_error (HTTP 500): An internal error has occurred."},
	} {
		t.Run(tt.fixture, func(t *testing.T) {
			srv := fake.NewServer(t)
			srv.Enqueue(fake.Fixture(t, tt.fixture), fake.Fixture(t, "gemini/text.stream.http"))
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

func TestScriptedRetryAfterReachesRetryInfo(t *testing.T) {
	srv := fake.NewServer(t)
	srv.Enqueue(fake.Reply{Status: 429, Headers: map[string]string{"Retry-After": "3"}, Error: &fake.APIError{Message: "Resource has been exhausted"}}, fake.Reply{Text: "ok"})
	c, slept := newTestClient(srv)
	if _, err := c.Complete(context.Background(), userRequest(false), &recSink{}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*slept, []time.Duration{3 * time.Second}) {
		t.Fatalf("slept %v, want the RetryInfo delay", *slept)
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
		{"bad key 400", fake.Reply{Status: 400, Body: `{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com"}]}}`}, true, providers.ErrAuthFailed, "API key not valid"},
		{"permission", fake.Reply{Status: 403, Error: &fake.APIError{Message: "Method doesn't allow unregistered callers"}}, false, providers.ErrAuthFailed, "unregistered callers"},
		{"model", fake.Reply{Status: 404, Error: &fake.APIError{Message: "models/gemini-9 is not found for API version v1beta, or is not supported for generateContent."}}, true, providers.ErrModelNotFound, "gemini-9"},
		{"context", fake.Reply{Status: 400, Error: &fake.APIError{Message: "The input token count (1290234) exceeds the maximum number of tokens allowed (1048576)."}}, true, providers.ErrContextOverflow, "exceeds the maximum number of tokens"},
		{"tools", fake.Reply{Status: 400, Error: &fake.APIError{Message: "* GenerateContentRequest.tools[0].function_declarations[2].parameters.properties: should be non-empty for OBJECT type"}}, true, providers.ErrProviderRejectedTools, "function_declarations[2]"},
		{"unknown field in tools", fake.Reply{Status: 400, Error: &fake.APIError{Message: `Invalid JSON payload received. Unknown name "exclusiveMinimum" at 'tools[0].function_declarations[9].parameters.properties[0].value': Cannot find field.`}}, true, providers.ErrProviderRejectedTools, "exclusiveMinimum"},
		{"tool words without tools", fake.Reply{Status: 400, Error: &fake.APIError{Message: "tools[0] bad"}}, false, providers.ErrProviderError, "tools[0]"},
		{"location", fake.Reply{Status: 400, Error: &fake.APIError{Message: "User location is not supported for the API use.", Code: "FAILED_PRECONDITION"}}, true, providers.ErrProviderError, "location"},
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

func TestRetriesExhausted(t *testing.T) {
	srv := fake.NewServer(t)
	for range 3 {
		srv.Enqueue(fake.Reply{Status: 503, Error: &fake.APIError{Message: "The model is overloaded. Please try again later."}})
	}
	c, slept := newTestClient(srv, func(cfg *providers.Config) { cfg.Retry.MaxRetries = 2 })
	_, err := c.Complete(context.Background(), userRequest(true), &recSink{})
	pe := mustProviderError(t, err, providers.ErrOverloaded)
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
			if *parts[0].Reasoning != (providers.Reasoning{Protocol: providers.ProtocolGemini, Text: "Let me think about it."}) {
				t.Fatalf("reasoning %+v", parts[0].Reasoning)
			}
			got := resp.Message.ToolCalls()
			wantArgs := []string{calls[0].Arguments, calls[1].Arguments, "{}"}
			for i, c := range got {
				if c.Name != calls[i].Name || c.Arguments != wantArgs[i] || (i == 0) != (c.Signature == fake.ThoughtSignature(1)) {
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
		"RECITATION": providers.FinishContentFilter, "MALFORMED_FUNCTION_CALL": providers.FinishOther,
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
		{Status: 400, Body: `{"error":{"code":400,"message":"API key ` + testKey + ` not valid","status":"INVALID_ARGUMENT"}}`},
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
			srv := fake.NewServer(t)
			srv.Enqueue(fake.Reply{Text: "ok"})
			var muts []func(*providers.Config)
			if tt.cfg != nil {
				muts = append(muts, tt.cfg)
			}
			c, _ := newTestClient(srv, muts...)
			req := userRequest(tt.stream)
			req.Model = tt.model
			if _, err := c.Complete(context.Background(), req, &recSink{}); err != nil {
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
			if got.Header.Get("Authorization") != "" || strings.Contains(got.Query, testKey) {
				t.Error("the key went somewhere else than x-goog-api-key")
			}
		})
	}
	_, err := New(providers.Config{BaseURL: "::"}).Complete(context.Background(), userRequest(false), nil)
	mustProviderError(t, err, providers.ErrProviderError)
	req := userRequest(false)
	req.Model = ""
	_, err = New(providers.Config{}).Complete(context.Background(), req, nil)
	if pe := mustProviderError(t, err, providers.ErrProviderError); !strings.Contains(pe.Message, "needs a model") {
		t.Fatalf("message %q", pe.Message)
	}
}
