package runner

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/fake"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// A run that reaches --max-rounds while the model still wants tools sends
// its last allowed request with tool calls turned off, so the model answers with what it
// has: text filled, status max_rounds, exit 3.
func TestMaxRoundsLastRoundCallsNoTool(t *testing.T) {
	ran := 0
	counting := echoTool{name: "count", resident: true, run: func(context.Context, *tools.Call) (any, error) { ran++; return "ok", nil }}
	call := providers.ToolCall{ID: "c", Name: "count", Arguments: `{}`}
	p := &scripted{replies: [](func(context.Context, *providers.Request, providers.Sink) (*providers.Response, error)){calls(call), text("It is 21°C.")}}
	opts, rec := newOpts(t, p, counting)
	opts.MaxRounds = 2
	res := Run(context.Background(), opts)
	checkEvents(t, rec, opts.Emitter)
	if res.Status != events.StatusMaxRounds || res.ExitCode != events.ExitLimit || res.Text != "It is 21°C." || ran != 1 || res.Rounds != 2 {
		t.Fatalf("status %s exit %d text %q ran %d rounds %d", res.Status, res.ExitCode, res.Text, ran, res.Rounds)
	}
	if res.Err == nil || res.Err.Code != "max_rounds" || !strings.Contains(res.Err.Message, "tool calls turned off") {
		t.Fatalf("error %+v", res.Err)
	}
	if len(p.requests[0].Tools) == 0 {
		t.Fatal("the first request had no tools")
	}
	last := p.requests[1]
	if len(last.Tools) == 0 || !last.NoToolCalls || !strings.Contains(last.System, finalHint) || strings.Contains(last.System, tools.UsageHint) {
		t.Fatalf("last request: %d tools, no tool calls %v, system %q", len(last.Tools), last.NoToolCalls, last.System)
	}
	// The stored conversation keeps the hint out: it is not the person's.
	for _, m := range res.Messages {
		if strings.Contains(m.Text(), finalHint) {
			t.Fatalf("hint stored in the conversation: %+v", m)
		}
	}
}

// A model that answers in the first round never meets the limit, even when
// --max-rounds is 1: that round carries tools.
func TestMaxRoundsOneKeepsToolsInTheOnlyRound(t *testing.T) {
	p := &scripted{replies: [](func(context.Context, *providers.Request, providers.Sink) (*providers.Response, error)){text("hi")}}
	opts, rec := newOpts(t, p)
	opts.MaxRounds = 1
	res := Run(context.Background(), opts)
	checkEvents(t, rec, opts.Emitter)
	if res.Status != events.StatusCompleted || len(p.requests[0].Tools) == 0 {
		t.Fatalf("status %s, %d tools", res.Status, len(p.requests[0].Tools))
	}
}

// A run that reaches --max-tool-calls asks once more, tool calls off, and
// ends with max_tool_calls and the answer; the calls past the limit get
// "not run" results so the conversation stays valid.
func TestMaxToolCallsLastRoundCallsNoTool(t *testing.T) {
	a := providers.ToolCall{ID: "a", Name: "echo", Arguments: `{}`}
	b := providers.ToolCall{ID: "b", Name: "echo", Arguments: `{}`}
	p := &scripted{replies: [](func(context.Context, *providers.Request, providers.Sink) (*providers.Response, error)){calls(a, b), text("Partial answer.")}}
	opts, rec := newOpts(t, p)
	opts.MaxToolCalls = 1
	res := Run(context.Background(), opts)
	checkEvents(t, rec, opts.Emitter)
	if res.Status != events.StatusMaxToolCalls || res.ExitCode != events.ExitLimit || res.Text != "Partial answer." || res.ToolCalls.Total != 1 {
		t.Fatalf("result %+v", res)
	}
	if len(p.requests) != 2 || !p.requests[1].NoToolCalls {
		t.Fatalf("%d requests; the last allowed tool calls", len(p.requests))
	}
	var results int
	for _, m := range p.requests[1].Messages {
		for _, part := range m.Parts {
			if part.ToolResult != nil {
				results++
			}
		}
	}
	if results != 2 {
		t.Fatalf("the last request carries %d tool results, want 2 (one run, one not run)", results)
	}
}

// The tool-call limit met in the last allowed round ends the run there:
// no request past --max-rounds.
func TestMaxToolCallsInTheLastRoundEndsTheRun(t *testing.T) {
	a := providers.ToolCall{ID: "a", Name: "echo", Arguments: `{}`}
	p := &scripted{replies: [](func(context.Context, *providers.Request, providers.Sink) (*providers.Response, error)){calls(a, a)}}
	opts, rec := newOpts(t, p)
	opts.MaxToolCalls, opts.MaxRounds = 1, 1
	res := Run(context.Background(), opts)
	checkEvents(t, rec, opts.Emitter)
	if res.Status != events.StatusMaxRounds && res.Status != events.StatusMaxToolCalls || len(p.requests) != 1 {
		t.Fatalf("status %s after %d requests", res.Status, len(p.requests))
	}
}

// TestConformanceLastRoundCallsNoTool runs the limit's last round over
// every codec against the fake: the request keeps its tools described (an
// API may refuse tool calls in a history without them) with each
// protocol's "no tool calls" choice, must pass each provider's official
// schema, and the answer must reach run.completed.
func TestConformanceLastRoundCallsNoTool(t *testing.T) {
	if _, err := fake.FixturesDir(); errors.Is(err, fake.ErrNoFixtures) {
		t.Skip(err)
	}
	v := &fake.Validator{}
	sc := scenario{
		name:    "max rounds answers with tool calls off",
		replies: []fake.Reply{{Text: "Let me check.", ToolCalls: []fake.ToolCall{{ID: "call_m", Name: "echo", Arguments: `{"x":1}`}}}, {Text: "Paris: 21°C."}},
		setup:   func(o *Options, _ *harness) { o.MaxRounds = 2 },
	}
	for _, c := range codecs {
		t.Run(string(c.proto), func(t *testing.T) {
			r := runScenario(t, v, c, sc)
			r.wantStatus(t, "max_rounds", "max_rounds")
			if r.res.ExitCode != events.ExitLimit || r.completed().Get("text").String() != "Paris: 21°C." {
				t.Errorf("exit %d, run.completed %s", r.res.ExitCode, r.completed().Raw)
			}
			if len(r.requests) != 2 {
				t.Fatalf("%d requests", len(r.requests))
			}
			if b := r.requests[0].Body; !bytes.Contains(b, []byte(`"echo"`)) {
				t.Errorf("first request has no tools: %s", b)
			}
			second := r.requests[1].Body
			none := map[providers.Protocol]string{
				providers.ProtocolOpenAI:          `"tool_choice":"none"`,
				providers.ProtocolOpenAIResponses: `"tool_choice":"none"`,
				providers.ProtocolAnthropic:       `"tool_choice":{"type":"none"}`,
				providers.ProtocolGemini:          `"toolConfig":{"functionCallingConfig":{"mode":"NONE"}}`,
			}[c.proto]
			if !bytes.Contains(second, []byte(none)) || !bytes.Contains(second, []byte(`"echo"`)) {
				t.Errorf("last request does not keep its tools with %s: %s", none, second)
			}
			if !bytes.Contains(second, []byte("limit of tool use")) {
				t.Errorf("last request does not say why it has no tools: %s", second)
			}
		})
	}
}
