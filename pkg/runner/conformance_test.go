package runner

// The conformance suite runs the runner over every real codec against the
// fake provider speaking that codec's wire format, with the same scripted
// replies, and checks both the events tavo wrote and the exact requests it
// sent: every request body against the provider's official schema, every
// event against the events schema, and what each request carried (text,
// calls, results, and which reasoning was sent back in each
// reasoning-context mode).

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/anthropic"
	"github.com/tavo-cli/tavo/pkg/providers/fake"
	"github.com/tavo-cli/tavo/pkg/providers/gemini"
	"github.com/tavo-cli/tavo/pkg/providers/openai"
	"github.com/tavo-cli/tavo/pkg/providers/responses"
	"github.com/tavo-cli/tavo/pkg/tools"
	"github.com/tavo-cli/tavo/pkg/tools/askuser"
)

// codec is one protocol under test.
type codec struct {
	proto providers.Protocol
	model string
	new   func(providers.Config) providers.Provider
}

var codecs = []codec{
	{providers.ProtocolOpenAI, "gpt-4.1", func(c providers.Config) providers.Provider { return openai.New(c) }},
	{providers.ProtocolOpenAIResponses, "gpt-5", func(c providers.Config) providers.Provider { return responses.New(c) }},
	{providers.ProtocolAnthropic, "claude-sonnet-4-5", func(c providers.Config) providers.Provider { return anthropic.New(c) }},
	{providers.ProtocolGemini, "gemini-2.5-flash", func(c providers.Config) providers.Provider { return gemini.New(c) }},
}

const (
	confPrompt = "What is the weather in Paris?"
	confSystem = "Be brief."
)

// scenario is one runner scenario, run over every codec.
type scenario struct {
	name    string
	replies []fake.Reply
	// setup adjusts the options (tools, limits, mode, streaming).
	setup func(o *Options, h *harness)
	check func(t *testing.T, r *confRun)
}

// harness gives a scenario hooks into a running run.
type harness struct {
	// onEvent sees every event as it is emitted, on the runner's goroutine.
	onEvent func(typ string, line []byte)
	cancel  context.CancelFunc
}

// confRun is what one scenario run produced.
type confRun struct {
	proto    providers.Protocol
	provider providers.Provider
	res      *Result
	lines    [][]byte
	requests []fake.Request
}

func TestConformance(t *testing.T) {
	if _, err := fake.FixturesDir(); errors.Is(err, fake.ErrNoFixtures) {
		t.Skip(err)
	}
	v := &fake.Validator{}
	for _, sc := range conformanceScenarios() {
		for _, c := range codecs {
			t.Run(sc.name+"/"+string(c.proto), func(t *testing.T) {
				r := runScenario(t, v, c, sc)
				sc.check(t, r)
			})
		}
	}
}

// runScenario runs sc over codec c and checks what every run must satisfy.
func runScenario(t *testing.T, v *fake.Validator, c codec, sc scenario) *confRun {
	t.Helper()
	srv := fake.NewServer(t)
	srv.Enqueue(sc.replies...)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h := &harness{cancel: cancel}
	r := &confRun{proto: c.proto}
	var mu sync.Mutex
	sink := events.FuncSink(func(e *events.Envelope, line []byte) error {
		if err := events.Validate(line); err != nil {
			t.Errorf("event breaks the events schema: %v\n%s", err, line)
		}
		mu.Lock()
		r.lines = append(r.lines, append([]byte(nil), line...))
		mu.Unlock()
		if h.onEvent != nil {
			h.onEvent(string(e.Type), line)
		}
		return nil
	})
	cat, err := tools.NewCatalog(echoTool{name: "echo", resident: true}, askuser.New())
	if err != nil {
		t.Fatal(err)
	}
	em := events.NewEmitter("run_conf", "ses_conf", nil, sink)
	opts := Options{
		Provider: c.new(providers.Config{
			BaseURL: srv.URL, APIKey: "conformance-key",
			// Waits are short so the suite is quick; Retry-After within
			// MaxDelay is still honoured exactly.
			Retry: providers.RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: 200 * time.Millisecond},
		}),
		Model: c.model, System: confSystem, Prompt: user(confPrompt),
		Catalog: cat, ToolsEnabled: true, Stream: true,
		Emitter: em, RunID: "run_conf", SessionID: "ses_conf",
		MaxRounds: config.DefaultMaxRounds, MaxToolCalls: config.DefaultMaxToolCalls, ToolTimeout: config.DefaultToolTimeout,
	}
	if sc.setup != nil {
		sc.setup(&opts, h)
	}
	r.provider = opts.Provider
	r.res = Run(ctx, opts)
	r.requests = srv.Requests()
	if err := em.Err(); err != nil {
		t.Fatalf("emitter: %v", err)
	}
	if n := len(r.lines); n == 0 || gjson.GetBytes(r.lines[n-1], "type").String() != "run.completed" {
		t.Fatalf("the run did not end with run.completed: %s", r.types())
	}
	for i, l := range r.lines {
		if got := gjson.GetBytes(l, "seq").Int(); got != int64(i+1) {
			t.Fatalf("event %d has seq %d", i, got)
		}
	}
	for i, req := range r.requests {
		if err := v.Validate(c.proto, req.Body); err != nil {
			t.Errorf("request %d breaks the official %s schema: %v\n%s", i+1, c.proto, err, req.Body)
		}
		checkResultsAnswerCalls(t, c.proto, req.Body)
	}
	if srv.Pending() != 0 {
		t.Errorf("%d scripted replies were not asked for", srv.Pending())
	}
	return r
}

// types lists the event types in order, deltas included.
func (r *confRun) types() string {
	var out []string
	for _, l := range r.lines {
		out = append(out, gjson.GetBytes(l, "type").String())
	}
	return strings.Join(out, " ")
}

// event returns the payload of the n-th (0-based) event of typ.
func (r *confRun) event(typ string, n int) gjson.Result {
	for _, l := range r.lines {
		if gjson.GetBytes(l, "type").String() == typ {
			if n == 0 {
				return gjson.GetBytes(l, "payload")
			}
			n--
		}
	}
	return gjson.Result{}
}

// completed is the run.completed payload.
func (r *confRun) completed() gjson.Result { return r.event("run.completed", 0) }

// wantTypes compares the event types, each delta run written once as "X*".
func (r *confRun) wantTypes(t *testing.T, want string) {
	t.Helper()
	var out []string
	for _, typ := range strings.Fields(r.types()) {
		if strings.HasSuffix(typ, ".delta") && len(out) > 0 && out[len(out)-1] == typ+"*" {
			continue
		}
		if strings.HasSuffix(typ, ".delta") {
			typ += "*"
		}
		out = append(out, typ)
	}
	if got := strings.Join(out, " "); got != want {
		t.Errorf("events\n got %s\nwant %s", got, want)
	}
}

// wantStatus checks how the run ended.
func (r *confRun) wantStatus(t *testing.T, status, code string) {
	t.Helper()
	done := r.completed()
	if done.Get("status").String() != status || done.Get("error.code").String() != code || r.res.Status != status {
		t.Errorf("run ended %s (%s: %s), want %s (%s)", done.Get("status"), done.Get("error.code"), done.Get("error.message"), status, code)
	}
}

// wantRequest compares what request n (1-based) carried, as flat items.
func (r *confRun) wantRequest(t *testing.T, n int, want ...string) {
	t.Helper()
	if len(r.requests) < n {
		t.Fatalf("%d requests, want at least %d", len(r.requests), n)
	}
	got := flatten(r.proto, r.requests[n-1].Body)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("request %d carried\n got %q\nwant %q", n, got, want)
	}
}

// system is the system text a request with tools carries.
var systemWithTools = "system:" + joinNonEmpty(confSystem, tools.UsageHint)

func conformanceScenarios() []scenario {
	noTools := func(o *Options, _ *harness) { o.ToolsEnabled = false }
	echo := func(id string, x int) fake.ToolCall {
		return fake.ToolCall{ID: id, Name: "echo", Arguments: fmt.Sprintf(`{"x":%d}`, x)}
	}
	result := func(x int) string { return fmt.Sprintf(`result:{"ok":true,"result":{"x":%d}}`, x) }
	usage := &fake.Usage{InputTokens: 20, OutputTokens: 8, CachedTokens: 5}
	list := []scenario{
		{
			name:    "text only",
			replies: []fake.Reply{{Text: "The weather in Paris is sunny.", Usage: usage}},
			setup:   noTools,
			check: func(t *testing.T, r *confRun) {
				r.wantStatus(t, "completed", "")
				r.wantTypes(t, "run.started round.started text.delta* message run.completed")
				if got := r.completed().Get("text").String(); got != "The weather in Paris is sunny." {
					t.Errorf("text %q", got)
				}
				if n := strings.Count(r.types(), "text.delta"); n != 3 {
					t.Errorf("%d text deltas, want the 3 scripted chunks", n)
				}
				u := r.event("message", 0).Get("usage")
				if u.Get("input_tokens").Int() != 20 || u.Get("output_tokens").Int() != 8 || u.Get("cached_tokens").Int() != 5 {
					t.Errorf("usage %s, want 20 in (5 cached), 8 out", u.Raw)
				}
				if f := r.event("message", 0).Get("finish_reason").String(); f != "stop" {
					t.Errorf("finish %s", f)
				}
				r.wantRequest(t, 1, "system:"+confSystem, "user:"+confPrompt)
			},
		},
		{
			name:    "text only, not streamed",
			replies: []fake.Reply{{Text: "Sunny.", Usage: usage}},
			setup:   func(o *Options, h *harness) { noTools(o, h); o.Stream = false },
			check: func(t *testing.T, r *confRun) {
				r.wantStatus(t, "completed", "")
				r.wantTypes(t, "run.started round.started message run.completed")
				if got := r.completed().Get("text").String(); got != "Sunny." {
					t.Errorf("text %q", got)
				}
			},
		},
		{
			name:    "one tool call",
			replies: []fake.Reply{{ToolCalls: []fake.ToolCall{echo("call_w1", 1)}}, {Text: "Done."}},
			check: func(t *testing.T, r *confRun) {
				r.wantStatus(t, "completed", "")
				r.wantTypes(t, "run.started round.started message tool.call tool.result round.started text.delta* message run.completed")
				if call := r.event("tool.call", 0); call.Get("name").String() != "echo" || call.Get("arguments.x").Int() != 1 {
					t.Errorf("tool.call %s", call.Raw)
				}
				if res := r.event("tool.result", 0); !res.Get("ok").Bool() || res.Get("call_id").String() != r.event("tool.call", 0).Get("call_id").String() {
					t.Errorf("tool.result %s", res.Raw)
				}
				if f := r.event("message", 0).Get("finish_reason").String(); f != "tool_calls" {
					t.Errorf("finish %s", f)
				}
				r.wantRequest(t, 1, systemWithTools, "user:"+confPrompt)
				r.wantRequest(t, 2, systemWithTools, "user:"+confPrompt, callItem(r.proto, 1, true, `echo:{"x":1}`), result(1))
			},
		},
		{
			name: "several calls in one response, fragments interleaved",
			replies: []fake.Reply{
				{ToolCalls: []fake.ToolCall{echo("call_a", 1), echo("call_b", 2), echo("call_c", 3)}, Interleave: true, Chunks: 4},
				{Text: "Three done."},
			},
			check: func(t *testing.T, r *confRun) {
				r.wantStatus(t, "completed", "")
				for i := range 3 {
					call := r.event("tool.call", i)
					if call.Get("arguments.x").Int() != int64(i+1) {
						t.Errorf("tool.call %d %s", i, call.Raw)
					}
				}
				ids := map[string]bool{}
				for _, c := range r.event("message", 0).Get("tool_calls").Array() {
					ids[c.Get("id").String()] = true
				}
				if len(ids) != 3 {
					t.Errorf("call ids not distinct: %v", ids)
				}
				r.wantRequest(t, 2, systemWithTools, "user:"+confPrompt,
					callItem(r.proto, 1, true, `echo:{"x":1}`), callItem(r.proto, 1, false, `echo:{"x":2}`), callItem(r.proto, 1, false, `echo:{"x":3}`),
					result(1), result(2), result(3))
			},
		},
		{
			name:    "ask-user answered",
			replies: []fake.Reply{{ToolCalls: []fake.ToolCall{{ID: "call_q", Name: askuser.Name, Arguments: `{"question":"Celsius or Fahrenheit?","options":["Celsius","Fahrenheit"]}`}}}, {Text: "21°C."}},
			setup: func(o *Options, _ *harness) {
				o.Asker = fixedAsker{tools.Answer{Status: "answered", Answer: "Celsius", Source: "option", Via: "driver"}}
			},
			check: func(t *testing.T, r *confRun) {
				r.wantStatus(t, "completed", "")
				r.wantTypes(t, "run.started round.started message tool.call ask.question ask.answer tool.result round.started text.delta* message run.completed")
				if q := r.event("ask.question", 0); q.Get("question").String() != "Celsius or Fahrenheit?" || q.Get("call_id").String() != r.event("tool.call", 0).Get("call_id").String() {
					t.Errorf("ask.question %s", q.Raw)
				}
				r.wantRequest(t, 2, systemWithTools, "user:"+confPrompt,
					callItem(r.proto, 1, true, askuser.Name+`:{"question":"Celsius or Fahrenheit?","options":["Celsius","Fahrenheit"]}`),
					`result:{"ok":true,"result":{"status":"answered","answer":"Celsius","source":"option"}}`)
			},
		},
		{
			name: "guidance after tool results joins their turn",
			replies: []fake.Reply{
				{ToolCalls: []fake.ToolCall{echo("call_g", 1)}},
				{Text: "In Celsius: 21."},
			},
			setup: func(o *Options, h *harness) {
				g := make(chan string, 1)
				o.Guidance = g
				h.onEvent = func(typ string, _ []byte) {
					if typ == "tool.result" {
						g <- "Use Celsius."
					}
				}
			},
			check: func(t *testing.T, r *confRun) {
				r.wantStatus(t, "completed", "")
				r.wantRequest(t, 2, systemWithTools, "user:"+confPrompt, callItem(r.proto, 1, true, `echo:{"x":1}`), result(1), "user:Use Celsius.")
				// Anthropic and Gemini want roles to alternate: the results and
				// the guidance share one user turn.
				want := map[providers.Protocol]string{
					providers.ProtocolOpenAI:          "system user assistant tool user",
					providers.ProtocolOpenAIResponses: "user function_call function_call_output user",
					providers.ProtocolAnthropic:       "user assistant user",
					providers.ProtocolGemini:          "user model user",
				}[r.proto]
				if got := roles(r.proto, r.requests[1].Body); got != want {
					t.Errorf("turns %q, want %q", got, want)
				}
			},
		},
		{
			name:    "tool loop, not streamed",
			replies: []fake.Reply{{Reasoning: "Check it.", ToolCalls: []fake.ToolCall{echo("call_n", 7)}}, {Text: "Seven."}},
			setup:   func(o *Options, _ *harness) { o.Stream = false; o.Reasoning = ReasoningActiveChain },
			check: func(t *testing.T, r *confRun) {
				r.wantStatus(t, "completed", "")
				r.wantTypes(t, "run.started round.started message tool.call tool.result round.started message run.completed")
				if got := r.event("message", 0).Get("reasoning").String(); got != "Check it." {
					t.Errorf("message reasoning %q", got)
				}
				r.wantRequest(t, 2, systemWithTools, "user:"+confPrompt, reasoningItem(r.proto, 1, "Check it."), callItem(r.proto, 1, true, `echo:{"x":7}`), result(7))
			},
		},
		{
			name:    "max rounds",
			replies: []fake.Reply{{Text: "Let me check.", ToolCalls: []fake.ToolCall{echo("call_m", 1)}}},
			setup:   func(o *Options, _ *harness) { o.MaxRounds = 1 },
			check: func(t *testing.T, r *confRun) {
				r.wantStatus(t, "max_rounds", "max_rounds")
				r.wantTypes(t, "run.started round.started text.delta* message run.completed")
				if r.res.ExitCode != 3 || len(r.requests) != 1 {
					t.Errorf("exit %d after %d requests", r.res.ExitCode, len(r.requests))
				}
			},
		},
		{
			name:    "cancellation mid-stream",
			replies: []fake.Reply{{Steps: []fake.Step{{Text: "Par"}, {Hang: true}}}},
			setup: func(o *Options, h *harness) {
				h.onEvent = func(typ string, _ []byte) {
					if typ == "text.delta" {
						h.cancel()
					}
				}
			},
			check: func(t *testing.T, r *confRun) {
				r.wantStatus(t, "cancelled", "cancelled")
				r.wantTypes(t, "run.started round.started text.delta* run.completed")
				if r.res.ExitCode != events.ExitCodeFor("cancelled") || len(r.requests) != 1 {
					t.Errorf("exit %d after %d requests", r.res.ExitCode, len(r.requests))
				}
			},
		},
		{
			name: "429 retried after Retry-After",
			replies: []fake.Reply{
				{Status: 429, Headers: map[string]string{"Retry-After": "0.02"}, Error: &fake.APIError{Message: "Rate limit reached", Code: "rate_limit_exceeded"}},
				{Text: "Sunny."},
			},
			setup: noTools,
			check: func(t *testing.T, r *confRun) {
				r.wantStatus(t, "completed", "")
				r.wantTypes(t, "run.started round.started retry text.delta* message run.completed")
				retry := r.event("retry", 0)
				if retry.Get("attempt").Int() != 1 || retry.Get("wait_ms").Int() != 20 || !strings.HasPrefix(retry.Get("reason").String(), "rate_limited (HTTP 429): Rate limit reached") {
					t.Errorf("retry %s, want attempt 1 after the 20 ms asked for", retry.Raw)
				}
				if len(r.requests) != 2 || !bytes.Equal(r.requests[0].Body, r.requests[1].Body) {
					t.Errorf("the retry did not resend the same request")
				}
			},
		},
		{
			name:    "stream cut before any output is retried",
			replies: []fake.Reply{{Steps: []fake.Step{{Cut: true}}}, {Text: "Sunny."}},
			setup:   noTools,
			check: func(t *testing.T, r *confRun) {
				r.wantStatus(t, "completed", "")
				r.wantTypes(t, "run.started round.started retry text.delta* message run.completed")
				if reason := r.event("retry", 0).Get("reason").String(); !strings.Contains(reason, "stream was cut") {
					t.Errorf("retry reason %q", reason)
				}
			},
		},
		{
			name:    "stream cut after output fails the run",
			replies: []fake.Reply{{Steps: []fake.Step{{Text: "Par"}, {Cut: true}}}},
			setup:   noTools,
			check: func(t *testing.T, r *confRun) {
				r.wantStatus(t, "failed", "provider_error")
				r.wantTypes(t, "run.started round.started text.delta* run.completed")
				if msg := r.completed().Get("error.message").String(); !strings.Contains(msg, "stream was cut") || len(r.requests) != 1 {
					t.Errorf("error %q after %d requests", msg, len(r.requests))
				}
			},
		},
		{
			name:    "malformed JSON in a chunk",
			replies: []fake.Reply{{Steps: []fake.Step{{Text: "Par"}, {Raw: "data: {not json\n\n"}, {Text: "is"}}}},
			setup:   noTools,
			check: func(t *testing.T, r *confRun) {
				r.wantStatus(t, "failed", "provider_error")
				if msg := r.completed().Get("error.message").String(); !strings.Contains(msg, "is not valid JSON") || len(r.requests) != 1 {
					t.Errorf("error %q after %d requests", msg, len(r.requests))
				}
			},
		},
		{
			name:    "auth error body",
			replies: []fake.Reply{{Status: 401, Error: &fake.APIError{Message: "invalid api key"}}},
			check: func(t *testing.T, r *confRun) {
				r.wantStatus(t, "failed", "auth_failed")
				if msg := r.completed().Get("error.message").String(); !strings.Contains(msg, "invalid api key") || strings.Contains(msg, "conformance-key") {
					t.Errorf("error %q", msg)
				}
			},
		},
		{
			name:    "context overflow error body",
			replies: []fake.Reply{{Status: 400, Error: &fake.APIError{Message: "prompt is too long: 300000 tokens > 200000 maximum", Code: "context_length_exceeded"}}},
			check: func(t *testing.T, r *confRun) {
				// The runner answers context_overflow, and only it, with a
				// compaction; without a compactor the run ends context_full.
				r.wantStatus(t, "failed", CodeContextFull)
				if len(r.requests) != 1 {
					t.Errorf("%d requests: a context overflow is not retried as is", len(r.requests))
				}
			},
		},
	}
	for _, mode := range []ReasoningContext{ReasoningOff, ReasoningSinceUser, ReasoningActiveChain} {
		list = append(list, reasoningLoop(mode), reasoningAfterSecondUserMessage(mode))
	}
	return list
}

// reasoningLoop is a two-round tool loop with reasoning in each round,
// checking which reasoning every request sent back under mode.
func reasoningLoop(mode ReasoningContext) scenario {
	return scenario{
		name: "reasoning tool loop, " + string(mode),
		replies: []fake.Reply{
			{Reasoning: "Think one.", ToolCalls: []fake.ToolCall{{ID: "call_r1", Name: "echo", Arguments: `{"x":1}`}}},
			{Reasoning: "Think two.", ToolCalls: []fake.ToolCall{{ID: "call_r2", Name: "echo", Arguments: `{"x":2}`}}},
			{Text: "Both done."},
		},
		setup: func(o *Options, _ *harness) { o.Reasoning = mode },
		check: func(t *testing.T, r *confRun) {
			r.wantStatus(t, "completed", "")
			r.wantTypes(t, "run.started round.started reasoning.delta* message tool.call tool.result round.started reasoning.delta* message tool.call tool.result round.started text.delta* message run.completed")
			if got := r.event("message", 1).Get("reasoning").String(); got != "Think two." {
				t.Errorf("message reasoning %q", got)
			}
			// Off sends no earlier reasoning, except to providers that need
			// the reasoning of an unresolved tool loop (runner.ChainKeeper):
			// Anthropic's signed thinking blocks whole. Gemini needs only
			// its signatures, which ride on the function call and are sent
			// in every mode; its thought text is not resent under off.
			keep := mode != ReasoningOff || chainNeedOf(r.provider) == chainWhole
			first := []string{callItem(r.proto, 1, true, `echo:{"x":1}`), `result:{"ok":true,"result":{"x":1}}`}
			second := []string{callItem(r.proto, 2, true, `echo:{"x":2}`), `result:{"ok":true,"result":{"x":2}}`}
			if keep {
				first = append([]string{reasoningItem(r.proto, 1, "Think one.")}, first...)
				second = append([]string{reasoningItem(r.proto, 2, "Think two.")}, second...)
			}
			head := []string{systemWithTools, "user:" + confPrompt}
			r.wantRequest(t, 2, append(append([]string(nil), head...), first...)...)
			r.wantRequest(t, 3, append(append(append([]string(nil), head...), first...), second...)...)
		},
	}
}

// reasoningAfterSecondUserMessage has two tool rounds in one user turn,
// then a second user message (a driver's guidance) before the third
// request. since-user and active-chain part there: since-user resends only
// reasoning after the latest user message, so none; active-chain resends
// the unresolved loop's, so both rounds'. Anthropic needs the loop's signed
// thinking whatever the mode, so for it the modes cannot differ here.
func reasoningAfterSecondUserMessage(mode ReasoningContext) scenario {
	return scenario{
		name: "two tool rounds then a second user message, " + string(mode),
		replies: []fake.Reply{
			{Reasoning: "Think one.", ToolCalls: []fake.ToolCall{{ID: "call_s1", Name: "echo", Arguments: `{"x":1}`}}},
			{Reasoning: "Think two.", ToolCalls: []fake.ToolCall{{ID: "call_s2", Name: "echo", Arguments: `{"x":2}`}}},
			{Text: "Both done."},
		},
		setup: func(o *Options, h *harness) {
			o.Reasoning = mode
			g := make(chan string, 1)
			o.Guidance = g
			results := 0
			h.onEvent = func(typ string, _ []byte) {
				if typ == "tool.result" {
					if results++; results == 2 {
						g <- "Now in Celsius."
					}
				}
			}
		},
		check: func(t *testing.T, r *confRun) {
			r.wantStatus(t, "completed", "")
			whole := chainNeedOf(r.provider) == chainWhole
			// Request 2: the loop is unresolved and no user message came
			// after the prompt, so both modes resend round 1's reasoning.
			keep2 := mode != ReasoningOff || whole
			// Request 3: a user message came after both rounds.
			keep3 := mode == ReasoningActiveChain || whole
			item := func(keep bool, seq, x int, think string) []string {
				out := []string{callItem(r.proto, seq, true, fmt.Sprintf(`echo:{"x":%d}`, x)), fmt.Sprintf(`result:{"ok":true,"result":{"x":%d}}`, x)}
				if keep {
					out = append([]string{reasoningItem(r.proto, seq, think)}, out...)
				}
				return out
			}
			head := []string{systemWithTools, "user:" + confPrompt}
			r.wantRequest(t, 2, append(append([]string(nil), head...), item(keep2, 1, 1, "Think one.")...)...)
			want3 := append(append([]string(nil), head...), item(keep3, 1, 1, "Think one.")...)
			want3 = append(append(want3, item(keep3, 2, 2, "Think two.")...), "user:Now in Celsius.")
			r.wantRequest(t, 3, want3...)
		},
	}
}

// reasoningItem is how reasoning of request seq's answer looks once sent
// back: Anthropic's with its signature, Responses' with its encrypted
// content, the others as text.
func reasoningItem(p providers.Protocol, seq int, text string) string {
	switch p {
	case providers.ProtocolAnthropic:
		return "reasoning:" + text + "|sig=" + fake.ThinkingSignature(seq, 0)
	case providers.ProtocolOpenAIResponses:
		return "reasoning:" + text + "|enc=" + fake.EncryptedReasoning(seq, 0)
	}
	return "reasoning:" + text
}

// callItem is a call sent back; Gemini's first call of an answer carries
// that answer's thought signature.
func callItem(p providers.Protocol, seq int, first bool, nameArgs string) string {
	if p == providers.ProtocolGemini && first {
		return "call:" + nameArgs + "|sig=" + fake.ThoughtSignature(seq)
	}
	return "call:" + nameArgs
}

// flatten lists what a request body carries, in order, in one form for all
// protocols: system:…, user:…, text:…, reasoning:…[|sig=…|enc=…],
// call:name:args[|sig=…], result:….
func flatten(p providers.Protocol, body []byte) []string {
	j := gjson.ParseBytes(body)
	var out []string
	add := func(s string) { out = append(out, s) }
	switch p {
	case providers.ProtocolOpenAI:
		for _, m := range j.Get("messages").Array() {
			switch m.Get("role").String() {
			case "system":
				add("system:" + m.Get("content").String())
			case "user":
				add("user:" + m.Get("content").String())
			case "assistant":
				if rc := m.Get("reasoning_content").String(); rc != "" {
					add("reasoning:" + rc)
				}
				if c := m.Get("content").String(); c != "" {
					add("text:" + c)
				}
				for _, c := range m.Get("tool_calls").Array() {
					add("call:" + c.Get("function.name").String() + ":" + compactJSON(c.Get("function.arguments").String()))
				}
			case "tool":
				add("result:" + compactJSON(m.Get("content").String()))
			}
		}
	case providers.ProtocolOpenAIResponses:
		if s := j.Get("instructions").String(); s != "" {
			add("system:" + s)
		}
		for _, it := range j.Get("input").Array() {
			switch {
			case it.Get("role").String() == "user":
				add("user:" + it.Get("content").String())
			case it.Get("role").String() == "assistant":
				add("text:" + it.Get("content").String())
			case it.Get("type").String() == "reasoning":
				var summary []string
				for _, s := range it.Get("summary").Array() {
					summary = append(summary, s.Get("text").String())
				}
				add("reasoning:" + strings.Join(summary, "\n\n") + "|enc=" + it.Get("encrypted_content").String())
			case it.Get("type").String() == "function_call":
				add("call:" + it.Get("name").String() + ":" + compactJSON(it.Get("arguments").String()))
			case it.Get("type").String() == "function_call_output":
				add("result:" + compactJSON(it.Get("output").String()))
			}
		}
	case providers.ProtocolAnthropic:
		if s := j.Get("system").String(); s != "" {
			add("system:" + s)
		}
		for _, m := range j.Get("messages").Array() {
			for _, b := range m.Get("content").Array() {
				switch b.Get("type").String() {
				case "text":
					if m.Get("role").String() == "user" {
						add("user:" + b.Get("text").String())
					} else {
						add("text:" + b.Get("text").String())
					}
				case "thinking":
					add("reasoning:" + b.Get("thinking").String() + "|sig=" + b.Get("signature").String())
				case "redacted_thinking":
					add("redacted:" + b.Get("data").String())
				case "tool_use":
					add("call:" + b.Get("name").String() + ":" + compactJSON(b.Get("input").Raw))
				case "tool_result":
					add("result:" + compactJSON(b.Get("content").String()))
				}
			}
		}
	case providers.ProtocolGemini:
		for _, s := range j.Get("systemInstruction.parts").Array() {
			add("system:" + s.Get("text").String())
		}
		for _, c := range j.Get("contents").Array() {
			for _, part := range c.Get("parts").Array() {
				sig := ""
				if s := part.Get("thoughtSignature").String(); s != "" {
					sig = "|sig=" + s
				}
				switch {
				case part.Get("functionCall").Exists():
					add("call:" + part.Get("functionCall.name").String() + ":" + compactJSON(part.Get("functionCall.args").Raw) + sig)
				case part.Get("functionResponse").Exists():
					add("result:" + compactJSON(part.Get("functionResponse.response").Raw))
				case part.Get("thought").Bool():
					add("reasoning:" + part.Get("text").String() + sig)
				case c.Get("role").String() == "user":
					add("user:" + part.Get("text").String())
				default:
					add("text:" + part.Get("text").String() + sig)
				}
			}
		}
	}
	return out
}

// roles lists a request's turns: message roles, or Responses item kinds.
func roles(p providers.Protocol, body []byte) string {
	j := gjson.ParseBytes(body)
	var out []string
	switch p {
	case providers.ProtocolOpenAI, providers.ProtocolAnthropic:
		for _, m := range j.Get("messages").Array() {
			out = append(out, m.Get("role").String())
		}
	case providers.ProtocolOpenAIResponses:
		for _, it := range j.Get("input").Array() {
			if r := it.Get("role").String(); r != "" {
				out = append(out, r)
			} else {
				out = append(out, it.Get("type").String())
			}
		}
	case providers.ProtocolGemini:
		for _, c := range j.Get("contents").Array() {
			out = append(out, c.Get("role").String())
		}
	}
	return strings.Join(out, " ")
}

// checkResultsAnswerCalls checks that every tool result answers a call of
// the turn before it: by id where the protocol has ids, by name and count
// for Gemini, whose calls carry none.
func checkResultsAnswerCalls(t *testing.T, p providers.Protocol, body []byte) {
	t.Helper()
	j := gjson.ParseBytes(body)
	var calls []string
	match := func(key string) {
		for i, c := range calls {
			if c == key {
				calls = append(calls[:i], calls[i+1:]...)
				return
			}
		}
		t.Errorf("result %q answers no open call in %s", key, body)
	}
	switch p {
	case providers.ProtocolOpenAI:
		for _, m := range j.Get("messages").Array() {
			for _, c := range m.Get("tool_calls").Array() {
				calls = append(calls, c.Get("id").String())
			}
			if m.Get("role").String() == "tool" {
				match(m.Get("tool_call_id").String())
			}
		}
	case providers.ProtocolOpenAIResponses:
		for _, it := range j.Get("input").Array() {
			switch it.Get("type").String() {
			case "function_call":
				calls = append(calls, it.Get("call_id").String())
			case "function_call_output":
				match(it.Get("call_id").String())
			}
		}
	case providers.ProtocolAnthropic:
		for _, m := range j.Get("messages").Array() {
			for _, b := range m.Get("content").Array() {
				switch b.Get("type").String() {
				case "tool_use":
					calls = append(calls, b.Get("id").String())
				case "tool_result":
					match(b.Get("tool_use_id").String())
				}
			}
		}
	case providers.ProtocolGemini:
		for _, c := range j.Get("contents").Array() {
			for _, part := range c.Get("parts").Array() {
				if fc := part.Get("functionCall"); fc.Exists() {
					calls = append(calls, fc.Get("name").String())
				}
				if fr := part.Get("functionResponse"); fr.Exists() {
					match(fr.Get("name").String())
				}
			}
		}
	}
	if len(calls) > 0 {
		t.Errorf("calls %v left without a result in %s", calls, body)
	}
}

func compactJSON(s string) string {
	var b bytes.Buffer
	if json.Compact(&b, []byte(s)) != nil {
		return s
	}
	return b.String()
}

// fixedAsker answers every question the same way.
type fixedAsker struct{ answer tools.Answer }

func (a fixedAsker) Ask(context.Context, tools.Question) (tools.Answer, error) { return a.answer, nil }
