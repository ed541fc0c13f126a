package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// scripted is an in-memory provider answering from a list of responses.
type scripted struct {
	mu       sync.Mutex
	replies  []func(ctx context.Context, req *providers.Request, sink providers.Sink) (*providers.Response, error)
	requests []*providers.Request
}

func (s *scripted) Protocol() providers.Protocol { return providers.ProtocolOpenAI }

func (s *scripted) Complete(ctx context.Context, req *providers.Request, sink providers.Sink) (*providers.Response, error) {
	s.mu.Lock()
	s.requests = append(s.requests, req)
	if len(s.replies) == 0 {
		s.mu.Unlock()
		return nil, errors.New("scripted provider: no reply left")
	}
	next := s.replies[0]
	s.replies = s.replies[1:]
	s.mu.Unlock()
	return next(ctx, req, sink)
}

func text(s string) func(context.Context, *providers.Request, providers.Sink) (*providers.Response, error) {
	return func(_ context.Context, req *providers.Request, sink providers.Sink) (*providers.Response, error) {
		if req.Stream {
			for _, w := range strings.SplitAfter(s, " ") {
				sink.TextDelta(w)
			}
		}
		return &providers.Response{
			Message:      providers.Message{Role: providers.RoleAssistant, Parts: []providers.Part{{Type: providers.PartText, Text: s}}},
			FinishReason: providers.FinishStop,
			Usage:        providers.Usage{InputTokens: 10, OutputTokens: 5},
		}, nil
	}
}

func calls(cs ...providers.ToolCall) func(context.Context, *providers.Request, providers.Sink) (*providers.Response, error) {
	return func(context.Context, *providers.Request, providers.Sink) (*providers.Response, error) {
		m := providers.Message{Role: providers.RoleAssistant}
		for i := range cs {
			m.Parts = append(m.Parts, providers.Part{Type: providers.PartToolCall, ToolCall: &cs[i]})
		}
		return &providers.Response{Message: m, FinishReason: providers.FinishToolCalls, Usage: providers.Usage{InputTokens: 20, OutputTokens: 7}}, nil
	}
}

func fail(err error) func(context.Context, *providers.Request, providers.Sink) (*providers.Response, error) {
	return func(context.Context, *providers.Request, providers.Sink) (*providers.Response, error) {
		return nil, err
	}
}

// echoTool returns its arguments.
type echoTool struct {
	name     string
	resident bool
	run      func(ctx context.Context, c *tools.Call) (any, error)
}

func (e echoTool) Spec() tools.Spec {
	return tools.Spec{Name: e.name, ID: e.name, Description: "Echo " + e.name + " arguments back.", Resident: e.resident, Source: tools.SourceBuiltin,
		Parameters: json.RawMessage(`{"type":"object","properties":{"x":{"type":"integer"}},"additionalProperties":false}`)}
}

func (e echoTool) Run(ctx context.Context, c *tools.Call) (any, error) {
	if e.run != nil {
		return e.run(ctx, c)
	}
	var v any
	_ = json.Unmarshal(c.Args, &v)
	return v, nil
}

type recorder struct {
	mu  sync.Mutex
	evs []*events.Envelope
}

func (r *recorder) WriteEvent(e *events.Envelope, line []byte) error {
	if err := events.Validate(line); err != nil {
		return err
	}
	r.mu.Lock()
	r.evs = append(r.evs, e)
	r.mu.Unlock()
	return nil
}

func (r *recorder) types() []string {
	var out []string
	for _, e := range r.evs {
		out = append(out, string(e.Type))
	}
	return out
}

func newOpts(t *testing.T, p providers.Provider, extra ...tools.Tool) (Options, *recorder) {
	t.Helper()
	cat, err := tools.NewCatalog(append([]tools.Tool{tools.NewToolSearch(), echoTool{name: "echo", resident: true}}, extra...)...)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	em := events.NewEmitter("run_1", "ses_1", nil, rec)
	return Options{
		Provider: p, Model: "m", Prompt: user("hi"), Catalog: cat, ToolsEnabled: true, DynamicTools: true,
		Stream: true, Emitter: em, RunID: "run_1", SessionID: "ses_1",
		MaxRounds: config.DefaultMaxRounds, MaxToolCalls: config.DefaultMaxToolCalls, ToolTimeout: config.DefaultToolTimeout,
	}, rec
}

func checkEvents(t *testing.T, rec *recorder, em *events.Emitter) {
	t.Helper()
	if err := em.Err(); err != nil {
		t.Fatalf("an event failed its schema: %v", err)
	}
	n := 0
	for i, e := range rec.evs {
		if e.Seq != int64(i+1) {
			t.Fatalf("seq gap: event %d has seq %d", i, e.Seq)
		}
		if e.Type == events.RunCompleted {
			n++
		}
	}
	if n != 1 || rec.evs[len(rec.evs)-1].Type != events.RunCompleted {
		t.Fatalf("want exactly one run.completed, last: %v", rec.types())
	}
}

func TestTextOnly(t *testing.T) {
	p := &scripted{replies: [](func(context.Context, *providers.Request, providers.Sink) (*providers.Response, error)){text("hello there world")}}
	opts, rec := newOpts(t, p)
	opts.ToolsEnabled = false
	res := Run(context.Background(), opts)
	checkEvents(t, rec, opts.Emitter)
	if res.Status != events.StatusCompleted || res.ExitCode != 0 || res.Text != "hello there world" {
		t.Fatalf("result %+v", res)
	}
	want := "run.started round.started text.delta text.delta text.delta message run.completed"
	if got := strings.Join(rec.types(), " "); got != want {
		t.Fatalf("events %s, want %s", got, want)
	}
	if len(p.requests[0].Tools) != 0 || strings.Contains(p.requests[0].System, tools.UsageHint) {
		t.Fatal("a request without tools got tools or the tool hint")
	}
}

func TestToolRoundThenAnswer(t *testing.T) {
	p := &scripted{replies: [](func(context.Context, *providers.Request, providers.Sink) (*providers.Response, error)){
		calls(providers.ToolCall{ID: "c1", Name: "echo", Arguments: `{"x":1}`}, providers.ToolCall{ID: "c2", Name: "echo", Arguments: `{"x":"bad"}`}),
		text("done"),
	}}
	opts, rec := newOpts(t, p)
	opts.System = "be brief"
	res := Run(context.Background(), opts)
	checkEvents(t, rec, opts.Emitter)
	if res.Status != events.StatusCompleted || res.Rounds != 2 || res.ToolCalls.Total != 2 || res.ToolCalls.Failed != 1 {
		t.Fatalf("result %+v", res)
	}
	first := p.requests[0]
	if !strings.HasPrefix(first.System, "be brief\n\n") || !strings.Contains(first.System, tools.UsageHint) {
		t.Fatalf("system prompt %q lacks the tool hint", first.System)
	}
	var names []string
	for _, ts := range first.Tools {
		names = append(names, ts.Name)
	}
	if strings.Join(names, ",") != tools.ToolSearchName+",echo" {
		t.Fatalf("first request tools %v", names)
	}
	// The second request carries both results, in call order.
	second := p.requests[1].Messages
	last := second[len(second)-1]
	if last.Role != providers.RoleTool || len(last.Parts) != 2 || last.Parts[0].ToolResult.CallID != "c1" {
		t.Fatalf("tool results message %+v", last)
	}
	if !strings.Contains(last.Parts[1].ToolResult.Content, `"invalid_arguments"`) {
		t.Fatalf("bad arguments were not rejected: %s", last.Parts[1].ToolResult.Content)
	}
	if res.Usage.InputTokens != 30 || res.Usage.OutputTokens != 12 {
		t.Fatalf("usage %+v", res.Usage)
	}
}

func TestMaxRoundsDoesNotRunLastCalls(t *testing.T) {
	ran := 0
	counting := echoTool{name: "count", resident: true, run: func(context.Context, *tools.Call) (any, error) { ran++; return "ok", nil }}
	call := providers.ToolCall{ID: "c", Name: "count", Arguments: `{}`}
	p := &scripted{replies: [](func(context.Context, *providers.Request, providers.Sink) (*providers.Response, error)){calls(call), calls(call)}}
	opts, rec := newOpts(t, p, counting)
	opts.MaxRounds = 2
	res := Run(context.Background(), opts)
	checkEvents(t, rec, opts.Emitter)
	if res.Status != events.StatusMaxRounds || res.ExitCode != 3 || ran != 1 || res.Rounds != 2 {
		t.Fatalf("status %s exit %d ran %d rounds %d", res.Status, res.ExitCode, ran, res.Rounds)
	}
	// The unrun calls still get results in the stored conversation.
	last := res.Messages[len(res.Messages)-1]
	if last.Role != providers.RoleTool || !last.Parts[0].ToolResult.IsError {
		t.Fatalf("unrun call left without a result: %+v", last)
	}
}

func TestMaxToolCalls(t *testing.T) {
	p := &scripted{replies: [](func(context.Context, *providers.Request, providers.Sink) (*providers.Response, error)){
		calls(providers.ToolCall{ID: "a", Name: "echo", Arguments: `{}`}, providers.ToolCall{ID: "b", Name: "echo", Arguments: `{}`}, providers.ToolCall{ID: "c", Name: "echo", Arguments: `{}`}),
		text("with what I have"),
	}}
	opts, rec := newOpts(t, p)
	opts.MaxToolCalls = 2
	res := Run(context.Background(), opts)
	checkEvents(t, rec, opts.Emitter)
	// The limit is reported, and the model still answered (limits_test.go).
	if res.Status != events.StatusMaxToolCalls || res.ExitCode != 3 || res.ToolCalls.Total != 2 || res.Text != "with what I have" {
		t.Fatalf("result %+v", res)
	}
}

// The runner has no defaults of its own: unset limits are the caller's bug
// and fail the run before any request, with exactly one run.completed.
func TestUnsetLimitsFail(t *testing.T) {
	for name, unset := range map[string]func(*Options){
		"rounds":       func(o *Options) { o.MaxRounds = 0 },
		"tool calls":   func(o *Options) { o.MaxToolCalls = 0 },
		"tool timeout": func(o *Options) { o.ToolTimeout = 0 },
	} {
		t.Run(name, func(t *testing.T) {
			p := &scripted{}
			opts, rec := newOpts(t, p)
			unset(&opts)
			res := Run(context.Background(), opts)
			checkEvents(t, rec, opts.Emitter)
			if res.Status != events.StatusFailed || res.Err == nil || res.Err.Code != "internal_error" || len(p.requests) != 0 {
				t.Fatalf("result %+v after %d requests", res, len(p.requests))
			}
		})
	}
}

func TestProviderFailure(t *testing.T) {
	p := &scripted{replies: [](func(context.Context, *providers.Request, providers.Sink) (*providers.Response, error)){
		fail(&providers.Error{Code: providers.ErrAuthFailed, Status: 401, Message: "Incorrect API key provided"}),
	}}
	opts, rec := newOpts(t, p)
	res := Run(context.Background(), opts)
	checkEvents(t, rec, opts.Emitter)
	if res.Status != events.StatusFailed || res.ExitCode != 1 || res.Err.Code != "auth_failed" {
		t.Fatalf("result %+v err %+v", res, res.Err)
	}
}

func TestCancelWithCause(t *testing.T) {
	p := &scripted{replies: [](func(context.Context, *providers.Request, providers.Sink) (*providers.Response, error)){
		func(ctx context.Context, _ *providers.Request, _ providers.Sink) (*providers.Response, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		},
	}}
	opts, rec := newOpts(t, p)
	ctx, cancel := context.WithCancelCause(context.Background())
	go func() {
		for {
			rec.mu.Lock()
			n := len(rec.evs)
			rec.mu.Unlock()
			if n >= 2 {
				cancel(&StopCause{Reason: "terminated (SIGTERM)", ExitCode: 143})
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
	res := Run(ctx, opts)
	checkEvents(t, rec, opts.Emitter)
	if res.Status != events.StatusCancelled || res.ExitCode != 143 {
		t.Fatalf("result %+v", res)
	}
}

func TestTimeout(t *testing.T) {
	p := &scripted{replies: [](func(context.Context, *providers.Request, providers.Sink) (*providers.Response, error)){
		func(ctx context.Context, _ *providers.Request, _ providers.Sink) (*providers.Response, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		},
	}}
	opts, rec := newOpts(t, p)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	res := Run(ctx, opts)
	checkEvents(t, rec, opts.Emitter)
	if res.Status != events.StatusTimeout || res.ExitCode != 3 {
		t.Fatalf("result %+v", res)
	}
}

func TestToolSearchRevealsNextRound(t *testing.T) {
	hidden := echoTool{name: "weather_lookup", resident: false}
	p := &scripted{replies: [](func(context.Context, *providers.Request, providers.Sink) (*providers.Response, error)){
		calls(providers.ToolCall{ID: "s", Name: tools.ToolSearchName, Arguments: `{"query":"weather lookup"}`}),
		calls(providers.ToolCall{ID: "w", Name: "weather_lookup", Arguments: `{"x":2}`}),
		text("sunny"),
	}}
	opts, rec := newOpts(t, p, hidden)
	res := Run(context.Background(), opts)
	checkEvents(t, rec, opts.Emitter)
	if res.Status != events.StatusCompleted || res.ToolCalls.Failed != 0 {
		t.Fatalf("result %+v", res)
	}
	has := func(req *providers.Request, name string) bool {
		for _, ts := range req.Tools {
			if ts.Name == name {
				return true
			}
		}
		return false
	}
	if has(p.requests[0], "weather_lookup") || !has(p.requests[1], "weather_lookup") {
		t.Fatal("a searched tool must become visible from the next round only")
	}
	var visible *events.ToolsVisibleP
	for _, e := range rec.evs {
		if v, ok := e.Payload.(events.ToolsVisibleP); ok {
			visible = &v
		}
	}
	if visible == nil || visible.Added[0] != "weather_lookup" {
		t.Fatalf("no tools.visible event: %v", rec.types())
	}
}

func TestDynamicOffSendsAll(t *testing.T) {
	p := &scripted{replies: [](func(context.Context, *providers.Request, providers.Sink) (*providers.Response, error)){text("ok")}}
	opts, _ := newOpts(t, p, echoTool{name: "hidden_tool"})
	opts.DynamicTools = false
	Run(context.Background(), opts)
	if len(p.requests[0].Tools) != 3 {
		t.Fatalf("dynamic loading off must send every tool, sent %d", len(p.requests[0].Tools))
	}
}

func TestGuidanceAddedBeforeNextRequest(t *testing.T) {
	g := make(chan string, 1)
	p := &scripted{}
	p.replies = [](func(context.Context, *providers.Request, providers.Sink) (*providers.Response, error)){
		func(ctx context.Context, r *providers.Request, s providers.Sink) (*providers.Response, error) {
			g <- "use metric units"
			return calls(providers.ToolCall{ID: "c", Name: "echo", Arguments: `{}`})(ctx, r, s)
		},
		text("ok"),
	}
	opts, _ := newOpts(t, p)
	opts.Guidance = g
	Run(context.Background(), opts)
	msgs := p.requests[1].Messages
	if got := msgs[len(msgs)-1]; got.Role != providers.RoleUser || got.Text() != "use metric units" {
		t.Fatalf("guidance not added before the next request: %+v", got)
	}
}

func TestAskFailEndsRun(t *testing.T) {
	asker := echoTool{name: "needs_person", resident: true, run: func(ctx context.Context, c *tools.Call) (any, error) {
		_, err := c.Env.Asker.Ask(ctx, tools.Question{CallID: c.ID, Question: "?"})
		return nil, err
	}}
	p := &scripted{replies: [](func(context.Context, *providers.Request, providers.Sink) (*providers.Response, error)){
		calls(providers.ToolCall{ID: "q", Name: "needs_person", Arguments: `{}`}),
	}}
	opts, rec := newOpts(t, p, asker)
	opts.Asker = NewAsker(AskFail, AskSources{})
	res := Run(context.Background(), opts)
	checkEvents(t, rec, opts.Emitter)
	if res.Status != events.StatusInputRequired || res.ExitCode != 5 {
		t.Fatalf("result %+v", res)
	}
}

func TestCostFromPrices(t *testing.T) {
	p := &scripted{replies: [](func(context.Context, *providers.Request, providers.Sink) (*providers.Response, error)){text("ok")}}
	opts, rec := newOpts(t, p)
	opts.Prices = &Prices{InputPerMTok: 2, OutputPerMTok: 8}
	Run(context.Background(), opts)
	done := rec.evs[len(rec.evs)-1].Payload.(events.RunCompletedP)
	if done.Usage.CostUSD == nil || *done.Usage.CostUSD != (10*2+5*8)/1e6 {
		t.Fatalf("cost %v", done.Usage.CostUSD)
	}
}

func TestPanicStillCompletes(t *testing.T) {
	p := &scripted{replies: [](func(context.Context, *providers.Request, providers.Sink) (*providers.Response, error)){
		func(context.Context, *providers.Request, providers.Sink) (*providers.Response, error) {
			panic("codec bug")
		},
	}}
	opts, rec := newOpts(t, p)
	res := Run(context.Background(), opts)
	checkEvents(t, rec, opts.Emitter)
	if res.Status != events.StatusFailed || res.Err.Code != "internal_error" {
		t.Fatalf("result %+v", res)
	}
}

func TestOnMessagesPerRound(t *testing.T) {
	p := &scripted{replies: [](func(context.Context, *providers.Request, providers.Sink) (*providers.Response, error)){
		calls(providers.ToolCall{ID: "c1", Name: "echo", Arguments: `{}`}),
		text("done"),
	}}
	opts, _ := newOpts(t, p)
	var got []string
	opts.OnMessages = func(round int, msgs []providers.Message) error {
		for _, m := range msgs {
			got = append(got, fmt.Sprintf("%d:%s", round, m.Role))
		}
		return nil
	}
	Run(context.Background(), opts)
	if strings.Join(got, " ") != "1:user 1:assistant 1:tool 2:assistant" {
		t.Fatalf("stored %v", got)
	}
}

type fakeCompactor struct {
	calls int
	err   error
}

func (c *fakeCompactor) Compact(_ context.Context, history []providers.Message, _ string) (*Compaction, error) {
	c.calls++
	if c.err != nil {
		return nil, c.err
	}
	return &Compaction{History: []providers.Message{user("summary of earlier talk")}, KeptFromSeq: 42, TokensBefore: 1000, TokensAfter: 100}, nil
}

func TestContextOverflowCompactsOnceAndRetries(t *testing.T) {
	overflow := fail(&providers.Error{Code: providers.ErrContextOverflow, Status: 400, Message: "maximum context length"})
	p := &scripted{replies: [](func(context.Context, *providers.Request, providers.Sink) (*providers.Response, error)){overflow, text("fits now")}}
	opts, rec := newOpts(t, p)
	opts.History = []providers.Message{user("old 1"), assistantWithReasoning("a", false), user("old 2"), assistantWithReasoning("b", false)}
	c := &fakeCompactor{}
	opts.Compactor = c
	var stored []string
	opts.OnMessages = func(_ int, msgs []providers.Message) error {
		for _, m := range msgs {
			stored = append(stored, m.Text())
		}
		return nil
	}
	res := Run(context.Background(), opts)
	checkEvents(t, rec, opts.Emitter)
	if strings.Join(stored, "|") != "hi|fits now" {
		t.Fatalf("a compaction must not change what the run stores: %q", stored)
	}
	if res.Status != events.StatusCompleted || c.calls != 1 {
		t.Fatalf("status %s, compactions %d", res.Status, c.calls)
	}
	retry := p.requests[1].Messages
	if len(retry) != 2 || retry[0].Text() != "summary of earlier talk" || retry[1].Text() != "hi" {
		t.Fatalf("retried request %+v", retry)
	}
	var comp *events.CompactionP
	for _, e := range rec.evs {
		if c, ok := e.Payload.(events.CompactionP); ok {
			comp = &c
		}
	}
	if comp == nil || comp.KeptFromSeq != 42 || comp.TokensAfter != 100 {
		t.Fatalf("compaction event %+v", comp)
	}
}

func TestOverflowWithoutCompactorFails(t *testing.T) {
	p := &scripted{replies: [](func(context.Context, *providers.Request, providers.Sink) (*providers.Response, error)){
		fail(&providers.Error{Code: providers.ErrContextOverflow, Status: 400, Message: "too long"}),
	}}
	opts, _ := newOpts(t, p)
	res := Run(context.Background(), opts)
	if res.Status != events.StatusFailed || res.Err.Code != CodeContextFull {
		t.Fatalf("result %+v %+v", res, res.Err)
	}
}

func TestBudgetCompactsBeforeRequest(t *testing.T) {
	p := &scripted{replies: [](func(context.Context, *providers.Request, providers.Sink) (*providers.Response, error)){text("ok")}}
	opts, _ := newOpts(t, p)
	opts.ToolsEnabled = false
	opts.History = []providers.Message{user(strings.Repeat("long history ", 500)), assistantWithReasoning("x", false)}
	c := &fakeCompactor{}
	opts.Compactor, opts.ContextBudget = c, 200
	res := Run(context.Background(), opts)
	if res.Status != events.StatusCompleted || c.calls != 1 || len(p.requests[0].Messages) != 2 {
		t.Fatalf("status %s compactions %d sent %d", res.Status, c.calls, len(p.requests[0].Messages))
	}
}

func TestSchemaRepairOnce(t *testing.T) {
	schema, err := CompileOutputSchema("n", []byte(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`))
	if err != nil {
		t.Fatal(err)
	}
	p := &scripted{replies: [](func(context.Context, *providers.Request, providers.Sink) (*providers.Response, error)){text("seven"), text(`{"n": 7}`)}}
	opts, rec := newOpts(t, p)
	opts.Schema, opts.MaxRounds = schema, 1
	res := Run(context.Background(), opts)
	checkEvents(t, rec, opts.Emitter)
	if res.Status != events.StatusCompleted || string(res.Structured.(json.RawMessage)) != `{"n":7}` {
		t.Fatalf("status %s structured %v", res.Status, res.Structured)
	}
	if p.requests[0].Schema == nil || p.requests[0].Schema.Name != "n" {
		t.Fatal("the schema was not sent to the provider")
	}
	if _, err := CompileOutputSchema("x", []byte(`{"type": 5}`)); err == nil {
		t.Fatal("a broken schema compiled")
	}
}

type guardedTool struct{ echoTool }

func (g guardedTool) Spec() tools.Spec {
	s := g.echoTool.Spec()
	s.NeedsConfirm = true
	return s
}

func TestConfirmations(t *testing.T) {
	ran := 0
	guarded := guardedTool{echoTool{name: "rm_all", resident: true, run: func(context.Context, *tools.Call) (any, error) { ran++; return "done", nil }}}
	call := providers.ToolCall{ID: "call_rm", Name: "rm_all", Arguments: `{}`}
	cases := []struct {
		name      string
		confirmer func() tools.Confirmer
		wantRan   int
		wantVia   string
	}{
		{"nobody to ask denies", func() tools.Confirmer { return NewConfirmer(false, AskSources{}) }, 0, "none"},
		{"--yes allows", func() tools.Confirmer { return NewConfirmer(true, AskSources{}) }, 1, "flag"},
		{"driver allows", func() tools.Confirmer {
			d := NewDriver(strings.NewReader(`{"type":"confirm.result","call_id":"call_rm","decision":"allow"}`+"\n"), nil, nil)
			return NewConfirmer(false, AskSources{Driver: d})
		}, 1, "driver"},
		{"driver denies", func() tools.Confirmer {
			d := NewDriver(strings.NewReader(`{"type":"confirm.result","call_id":"call_rm","decision":"deny"}`+"\n"), nil, nil)
			return NewConfirmer(false, AskSources{Driver: d})
		}, 0, "driver"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ran = 0
			p := &scripted{replies: [](func(context.Context, *providers.Request, providers.Sink) (*providers.Response, error)){calls(call), text("ok")}}
			opts, rec := newOpts(t, p, guarded)
			opts.Confirmer = c.confirmer()
			res := Run(context.Background(), opts)
			checkEvents(t, rec, opts.Emitter)
			if ran != c.wantRan {
				t.Fatalf("ran %d times, want %d", ran, c.wantRan)
			}
			if c.wantRan == 0 && res.ToolCalls.Denied != 1 {
				t.Fatalf("denied %d, want 1", res.ToolCalls.Denied)
			}
			var via string
			for _, e := range rec.evs {
				if e.Type == events.ConfirmResult {
					b, _ := json.Marshal(e.Payload)
					var p struct{ Via string }
					_ = json.Unmarshal(b, &p)
					via = p.Via
				}
			}
			if via != c.wantVia {
				t.Fatalf("confirm.result via %q, want %q", via, c.wantVia)
			}
		})
	}
}

// A tool's own model requests (tavo_web_fetch's fetch model) count in
// run.completed.usage and its cost.
func TestToolUsageCountsInRunUsage(t *testing.T) {
	p := &scripted{replies: [](func(context.Context, *providers.Request, providers.Sink) (*providers.Response, error)){
		calls(providers.ToolCall{ID: "c1", Name: "extract", Arguments: `{}`}),
		text("done"),
	}}
	extract := echoTool{name: "extract", resident: true, run: func(_ context.Context, c *tools.Call) (any, error) {
		c.Env.AddUsage(providers.Usage{InputTokens: 1000, OutputTokens: 100, CachedTokens: 40})
		c.Env.AddUsage(providers.Usage{InputTokens: 500, OutputTokens: 50})
		return "ok", nil
	}}
	opts, rec := newOpts(t, p, extract)
	opts.Prices = &Prices{InputPerMTok: 2, OutputPerMTok: 8}
	res := Run(context.Background(), opts)
	checkEvents(t, rec, opts.Emitter)
	want := providers.Usage{InputTokens: 20 + 10 + 1500, OutputTokens: 7 + 5 + 150, CachedTokens: 40}
	if res.Status != events.StatusCompleted || res.Usage != want {
		t.Fatalf("status %s, usage %+v, want %+v", res.Status, res.Usage, want)
	}
	done := rec.evs[len(rec.evs)-1].Payload.(events.RunCompletedP)
	if done.Usage.InputTokens != want.InputTokens || done.Usage.OutputTokens != want.OutputTokens {
		t.Fatalf("run.completed usage %+v", done.Usage)
	}
	cost := (float64(want.InputTokens)*2 + float64(want.OutputTokens)*8) / 1e6
	if done.Usage.CostUSD == nil || *done.Usage.CostUSD != cost {
		t.Fatalf("cost %v, want %v", done.Usage.CostUSD, cost)
	}
}
