package providertest

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

// ErrorCase is an error answer the codec must report at once, without a
// retry.
type ErrorCase struct {
	Name  string
	Reply fake.Reply
	// Tools sends the weather tool with the request, for errors that only
	// mean "tools rejected" when there were tools.
	Tools bool
	Code  providers.ErrorCode
	// Contains is a piece of the message the error must carry.
	Contains string
}

// ErrorsNotRetried runs each case as a subtest: the fake answers c.Reply
// (and would answer a retry with text), and the error must be a
// *providers.Error of c.Code with c.Reply.Status, a message containing
// c.Contains and no key, after exactly one request and no retry wait.
func ErrorsNotRetried[C providers.Provider](t *testing.T, codec Codec[C], cases []ErrorCase) {
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			srv := fake.NewServer(t)
			srv.Enqueue(tt.Reply, fake.Reply{Text: "must not be reached"})
			c, slept := codec.New(srv)
			req := codec.Request(true)
			if tt.Tools {
				req.Tools = []providers.ToolSpec{codec.WeatherTool()}
			}
			_, err := c.Complete(context.Background(), req, &Sink{})
			pe := MustError(t, err, tt.Code, codec.Key)
			if !strings.Contains(pe.Message, tt.Contains) || pe.Status != tt.Reply.Status {
				t.Fatalf("message %q (status %d), want it to contain %q", pe.Message, pe.Status, tt.Contains)
			}
			if len(srv.Requests()) != 1 || len(*slept) != 0 {
				t.Fatalf("retried: %d requests", len(srv.Requests()))
			}
		})
	}
}

// ExhaustCase is an answer the codec retries; served every time, it
// exhausts the retries.
type ExhaustCase struct {
	Name  string
	Reply fake.Reply
	Code  providers.ErrorCode
}

// RetriesExhausted runs each case as a subtest with at most 2 retries: the
// fake answers c.Reply three times, and the error must be a
// *providers.Error of c.Code with no key, ending "(gave up after 2
// retries)" and showing no markup, after 3 requests and 2 waits.
func RetriesExhausted[C providers.Provider](t *testing.T, codec Codec[C], cases []ExhaustCase) {
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			srv := fake.NewServer(t)
			for range 3 {
				srv.Enqueue(tt.Reply)
			}
			c, slept := codec.New(srv, func(cfg *providers.Config) { cfg.Retry.MaxRetries = 2 })
			_, err := c.Complete(context.Background(), codec.Request(true), &Sink{})
			pe := MustError(t, err, tt.Code, codec.Key)
			if len(srv.Requests()) != 3 || len(*slept) != 2 || !strings.HasSuffix(pe.Message, "(gave up after 2 retries)") || strings.Contains(pe.Message, "<") {
				t.Fatalf("%d requests, slept %v, message %q", len(srv.Requests()), *slept, pe.Message)
			}
		})
	}
}

// RetryCase is a recorded failure the codec must retry once.
type RetryCase struct {
	// Fixture names the recorded failure.
	Fixture string
	// Wait is the wait announced and slept before the retry.
	Wait time.Duration
	// Reason is the start of the reason announced.
	Reason string
}

// FixtureRetries runs each case as a subtest: the fake answers c.Fixture,
// then the fixture then. The streamed standard request must succeed after
// 2 requests with text (exactly text when text is not ""), one retry
// announced with c.Wait and a reason starting with c.Reason, and c.Wait
// slept.
func FixtureRetries[C providers.Provider](t *testing.T, codec Codec[C], then, text string, cases []RetryCase) {
	for _, tt := range cases {
		t.Run(tt.Fixture, func(t *testing.T) {
			srv := fake.NewServer(t)
			srv.Enqueue(fake.Fixture(t, tt.Fixture), fake.Fixture(t, then))
			c, slept := codec.New(srv)
			sink := &Sink{}
			resp, err := c.Complete(context.Background(), codec.Request(true), sink)
			if err != nil {
				t.Fatal(err)
			}
			got := resp.Message.Text()
			if got == "" || (text != "" && got != text) || len(srv.Requests()) != 2 {
				t.Fatalf("text %q after %d requests", got, len(srv.Requests()))
			}
			if len(sink.Retries) != 1 || sink.Retries[0].Wait != tt.Wait || !strings.HasPrefix(sink.Retries[0].Reason, tt.Reason) {
				t.Fatalf("retries %+v, want one after %v: %q", sink.Retries, tt.Wait, tt.Reason)
			}
			if !reflect.DeepEqual(*slept, []time.Duration{tt.Wait}) {
				t.Fatalf("slept %v", *slept)
			}
		})
	}
}

// FinishReasons checks that each wire finish reason, sent by the fake
// streamed and not, becomes the normalised reason it maps to.
func FinishReasons[C providers.Provider](t *testing.T, codec Codec[C], want map[string]providers.FinishReason) {
	for wire, want := range want {
		srv := fake.NewServer(t)
		srv.Enqueue(fake.Reply{Text: "x", Finish: wire}, fake.Reply{Text: "x", Finish: wire})
		c, _ := codec.New(srv)
		for _, stream := range []bool{true, false} {
			resp, err := c.Complete(context.Background(), codec.Request(stream), nil)
			if err != nil {
				t.Fatal(err)
			}
			if resp.FinishReason != want {
				t.Errorf("%s (stream %v) -> %s, want %s", wire, stream, resp.FinishReason, want)
			}
		}
	}
}

// KeyNeverInErrors plays each reply, which quotes the key, without retries:
// each must fail, and neither the error's text nor its message may show
// the key.
func KeyNeverInErrors[C providers.Provider](t *testing.T, codec Codec[C], replies []fake.Reply) {
	for i, r := range replies {
		srv := fake.NewServer(t)
		srv.Enqueue(r)
		c, _ := codec.New(srv, func(cfg *providers.Config) { cfg.Retry.MaxRetries = -1 })
		_, err := c.Complete(context.Background(), codec.Request(true), &Sink{})
		if err == nil {
			t.Fatalf("reply %d: no error", i)
		}
		if pe := providers.AsError(err); strings.Contains(err.Error(), codec.Key) || strings.Contains(pe.Message, codec.Key) {
			t.Fatalf("reply %d: error leaks the key: %v", i, err)
		}
	}
}

// CutStream checks that a stream cut before any output is retried and one
// cut after output ("Hel") is not: the error is a provider_error wrapping
// providers.ErrStreamCut, after 2 requests, with "Hel" delivered once.
func CutStream[C providers.Provider](t *testing.T, codec Codec[C]) {
	srv := fake.NewServer(t)
	srv.Enqueue(
		fake.Reply{Steps: []fake.Step{{Cut: true}}},
		fake.Reply{Steps: []fake.Step{{Text: "Hel"}, {Cut: true}}},
	)
	c, _ := codec.New(srv)
	sink := &Sink{}
	_, err := c.Complete(context.Background(), codec.Request(true), sink)
	MustError(t, err, providers.ErrProviderError, codec.Key)
	if !errors.Is(err, providers.ErrStreamCut) || len(srv.Requests()) != 2 || strings.Join(sink.Text, "") != "Hel" {
		t.Fatalf("err %v after %d requests, deltas %q", err, len(srv.Requests()), sink.Text)
	}
}

// StreamAnsweredWithJSON checks that a streamed request answered with a
// plain JSON body (as some servers do) still gives the answer's text.
func StreamAnsweredWithJSON[C providers.Provider](t *testing.T, codec Codec[C]) {
	srv := fake.NewServer(t)
	srv.Enqueue(fake.Reply{Text: "plain json", Stream: fake.Bool(false)})
	c, _ := codec.New(srv)
	resp, err := c.Complete(context.Background(), codec.Request(true), nil)
	if err != nil || resp.Message.Text() != "plain json" {
		t.Fatalf("resp %+v err %v", resp, err)
	}
}

// CancelledBeforeAnswer checks that a request whose context is already
// cancelled, to a server that would take an hour, fails with
// context.Canceled.
func CancelledBeforeAnswer[C providers.Provider](t *testing.T, codec Codec[C]) {
	srv := fake.NewServer(t)
	srv.Enqueue(fake.Reply{Delay: fake.Duration(time.Hour), Text: "never"})
	c, _ := codec.New(srv)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := c.Complete(ctx, codec.Request(true), nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

// ScriptedReplies plays, streamed and not (subtests "stream" and "json"),
// a scripted reply with the reasoning "Let me think about it.", the text
// "Calling tools." in 4 chunks, calls interleaved, usage and the model
// "served-model". It checks what every codec must make of it: a reasoning
// part equal to reasoning, a text part, then one part per call; finish
// tool_calls; usage as scripted; the served model; when streamed, 4 text
// deltas and reasoning deltas that add up to the reasoning. check then
// makes the codec's own checks.
func ScriptedReplies[C providers.Provider](t *testing.T, codec Codec[C], reasoning providers.Reasoning, calls []fake.ToolCall, usage providers.Usage, check func(t *testing.T, stream bool, resp *providers.Response, sink *Sink)) {
	for _, stream := range []bool{true, false} {
		t.Run(map[bool]string{true: "stream", false: "json"}[stream], func(t *testing.T) {
			resp, sink := codec.Play(t, codec.Request(stream), fake.Reply{
				Reasoning: "Let me think about it.", Text: "Calling tools.", Chunks: 4, Interleave: true, ToolCalls: calls,
				Usage: &fake.Usage{InputTokens: usage.InputTokens, OutputTokens: usage.OutputTokens, CachedTokens: usage.CachedTokens, ReasoningTokens: usage.ReasoningTokens},
				Model: "served-model",
			})
			parts := resp.Message.Parts
			if len(parts) != 2+len(calls) || parts[0].Type != providers.PartReasoning || parts[1].Type != providers.PartText {
				t.Fatalf("parts %+v, want reasoning, text, %d tool calls", parts, len(calls))
			}
			if *parts[0].Reasoning != reasoning {
				t.Fatalf("reasoning %+v", parts[0].Reasoning)
			}
			if resp.FinishReason != providers.FinishToolCalls || resp.Usage != usage || resp.Model != "served-model" {
				t.Fatalf("finish %s usage %+v model %s", resp.FinishReason, resp.Usage, resp.Model)
			}
			if stream && (len(sink.Text) != 4 || strings.Join(sink.Reasoning, "") != "Let me think about it.") {
				t.Fatalf("deltas text %q reasoning %q", sink.Text, sink.Reasoning)
			}
			check(t, stream, resp, sink)
		})
	}
}

// CheckReasoning fails t unless the reasoning blocks of m are want and,
// for a streamed answer with reasoning, the reasoning deltas add up to the
// first block's text.
func CheckReasoning(t *testing.T, m providers.Message, sink *Sink, stream bool, want []providers.Reasoning) {
	t.Helper()
	if got := Reasonings(m); !reflect.DeepEqual(got, want) {
		t.Errorf("reasoning %+v\nwant %+v", got, want)
	}
	if stream && len(want) > 0 && strings.Join(sink.Reasoning, "") != want[0].Text {
		t.Errorf("reasoning deltas %q", sink.Reasoning)
	}
}

// CheckEnd fails t unless resp ended for finish, with usage, from model.
func CheckEnd(t *testing.T, resp *providers.Response, finish providers.FinishReason, usage providers.Usage, model string) {
	t.Helper()
	if resp.FinishReason != finish || resp.Usage != usage || resp.Model != model {
		t.Errorf("finish %s usage %+v model %q; want %s %+v %q", resp.FinishReason, resp.Usage, resp.Model, finish, usage, model)
	}
}

// HeaderCase is a client config and where and how its request must go.
type HeaderCase struct {
	Name string
	// Config changes the test client's config; nil keeps it.
	Config func(*providers.Config)
	// Path and Query are where the request must go.
	Path  string
	Query string
	// Headers must be sent with these values; Absent must not be sent.
	Headers map[string]string
	Absent  []string
}

// HeadersAndURL runs each case as a subtest: the standard streamed request,
// sent by a client with c.Config, must be a POST to c.Path with the query
// c.Query, carry c.Headers and none of c.Absent.
func HeadersAndURL[C providers.Provider](t *testing.T, codec Codec[C], cases []HeaderCase) {
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			got := codec.Sent(t, codec.Request(true), tt.Config)
			if got.Method != "POST" || got.Path != tt.Path || got.Query != tt.Query {
				t.Fatalf("%s %s?%s, want %s?%s", got.Method, got.Path, got.Query, tt.Path, tt.Query)
			}
			CheckHeaders(t, got.Header, tt.Headers, tt.Absent...)
		})
	}
}
