package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/runner"
	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// twoRounds asks for the echo tool, then answers "done".
type twoRounds struct{ reqs []*providers.Request }

func (p *twoRounds) Protocol() providers.Protocol { return providers.ProtocolOpenAI }

func (p *twoRounds) Complete(_ context.Context, req *providers.Request, _ providers.Sink) (*providers.Response, error) {
	p.reqs = append(p.reqs, req)
	if len(p.reqs) == 1 {
		call := providers.ToolCall{ID: "call_1", Name: "echo", Arguments: `{"x":1}`}
		return &providers.Response{Message: providers.Message{Role: providers.RoleAssistant, Parts: []providers.Part{{Type: providers.PartToolCall, ToolCall: &call}}},
			FinishReason: providers.FinishToolCalls}, nil
	}
	return &providers.Response{Message: msg(providers.RoleAssistant, "done"), FinishReason: providers.FinishStop}, nil
}

type echo struct{}

func (echo) Spec() tools.Spec {
	return tools.Spec{Name: "echo", ID: "echo", Description: "Echo the arguments back.", Resident: true, Source: tools.SourceBuiltin,
		Parameters: json.RawMessage(`{"type":"object","properties":{"x":{"type":"integer"}},"additionalProperties":false}`)}
}

func (echo) Run(_ context.Context, c *tools.Call) (any, error) {
	var v any
	err := json.Unmarshal(c.Args, &v)
	return v, err
}

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// runBound runs a two-round run bound by b and returns what the stream
// printed, as `tavo run` would.
func runBound(t *testing.T, b *Binding, o runner.Options) (*runner.Result, []byte) {
	t.Helper()
	cat, err := tools.NewCatalog(echo{})
	if err != nil {
		t.Fatal(err)
	}
	o.Provider, o.Model, o.Catalog, o.ToolsEnabled = &twoRounds{}, "m", cat, true
	o.MaxRounds, o.MaxToolCalls, o.ToolTimeout = config.DefaultMaxRounds, config.DefaultMaxToolCalls, config.DefaultToolTimeout
	b.Configure(&o)
	var out bytes.Buffer
	o.Emitter = events.NewEmitter(o.RunID, o.SessionID, nil, b, events.NewNDJSONWriter(&out))
	res := runner.Run(context.Background(), o)
	if err := b.Finish(context.Background(), res); err != nil {
		t.Fatal(err)
	}
	return res, out.Bytes()
}

func TestBindNewSession(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	b, err := Bind(ctx, st, BindOptions{Prompt: "Plan the release\nthen ship", Meta: store.RunMeta{Profile: "work", Provider: "openai", Model: "m"}})
	if err != nil {
		t.Fatal(err)
	}
	res, stream := runBound(t, b, runner.Options{Prompt: msg(providers.RoleUser, "Plan the release\nthen ship"), System: "Be brief."})
	if res.Status != events.StatusCompleted || res.Rounds != 2 {
		t.Fatalf("result %+v", res)
	}

	s, err := st.GetSession(ctx, b.SessionID())
	if err != nil {
		t.Fatal(err)
	}
	if s.Title != store.AutoTitle("Plan the release\nthen ship") || s.ActiveRun != "" {
		t.Fatalf("session %+v", s)
	}
	run, err := st.GetRun(ctx, b.RunID())
	if err != nil {
		t.Fatal(err)
	}
	if run.Status != events.StatusCompleted || run.Profile != "work" || run.Model != "m" || run.SessionID != b.SessionID() || len(run.Summary) == 0 {
		t.Fatalf("run record %+v", run)
	}

	// Messages are stored per round: the prompt and the tool call with
	// round 1, the tool result with it too, the answer with round 2.
	msgs, err := st.History(ctx, b.SessionID(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range msgs {
		got = append(got, string(m.Message.Role)+"@"+string(rune('0'+m.Round)))
		if m.RunID != b.RunID() {
			t.Fatalf("message of run %q, want %q", m.RunID, b.RunID())
		}
	}
	if want := "user@1 assistant@1 tool@1 assistant@2"; strings.Join(got, " ") != want {
		t.Fatalf("stored %s, want %s", strings.Join(got, " "), want)
	}

	// The journal holds every event byte for byte as streamed.
	lines, err := st.Events(ctx, b.RunID(), 0, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	var journal []byte
	for _, l := range lines {
		journal = append(journal, l...)
		if !bytes.HasSuffix(l, []byte("\n")) {
			journal = append(journal, '\n')
		}
	}
	if !bytes.Equal(journal, stream) {
		t.Fatalf("journal differs from the stream:\n%s\nwant\n%s", journal, stream)
	}

	// The tool call is audited with its arguments.
	audit, _, err := st.ListAudit(ctx, "tool", 10, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(audit) != 1 || !strings.Contains(string(audit[0].Data), `"call_id":"call_1"`) || !strings.Contains(string(audit[0].Data), `"arguments":{"x":1}`) {
		t.Fatalf("audit %+v", audit)
	}
}

func TestBindConfigure(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	on, items := true, []string{"likes tea"}
	if _, err := st.SetMemory(ctx, store.MemoryUpdate{Enabled: &on, Items: &items}); err != nil {
		t.Fatal(err)
	}
	b, err := Bind(ctx, st, BindOptions{NewSessionID: "ses_new", RunID: "run_new", Prompt: "hi",
		Vars: map[string]json.RawMessage{"city": json.RawMessage(`"Lyon"`)}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Finish(ctx, &runner.Result{Status: events.StatusCompleted})
	o := runner.Options{System: "Be brief.", ContextBudget: 1000}
	b.Configure(&o)
	if o.RunID != "run_new" || o.SessionID != "ses_new" || o.Resume != "tavo session send ses_new" || o.OnMessages == nil {
		t.Fatalf("options %+v", o)
	}
	// A new session has no history to compact.
	if o.History != nil || o.Compactor != nil {
		t.Fatalf("new session got history %v compactor %v", o.History, o.Compactor)
	}
	if !strings.HasPrefix(o.System, "Be brief.\n\n") || !strings.Contains(o.System, "likes tea") {
		t.Fatalf("system %q lacks the memories after the prompt", o.System)
	}
	v, err := st.GetVar(ctx, store.ScopeChat, "ses_new", "city")
	if err != nil || string(v) != `"Lyon"` {
		t.Fatalf("var city = %s, %v", v, err)
	}
}

func TestBindExistingSession(t *testing.T) {
	ctx := context.Background()
	st, id := seed(t, 2, 10)
	b, err := Bind(ctx, st, BindOptions{SessionID: id, Prompt: "again"})
	if err != nil {
		t.Fatal(err)
	}
	o := runner.Options{Prompt: msg(providers.RoleUser, "again"), ContextBudget: 800}
	res, _ := runBound(t, b, o)
	if res.Status != events.StatusCompleted || b.SessionID() != id {
		t.Fatalf("result %+v on %s", res, b.SessionID())
	}
	// The history reached the model, and the new messages follow it.
	msgs, err := st.History(ctx, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 4+4 || msgs[4].Message.Text() != "again" || msgs[4].RunID != b.RunID() {
		t.Fatalf("stored %d messages, the 5th %+v", len(msgs), msgs[4])
	}
	// The title stays.
	if s, _ := st.GetSession(ctx, id); s.Title != "t" {
		t.Fatalf("title %q", s.Title)
	}

	b2, err := Bind(ctx, st, BindOptions{SessionID: id})
	if err != nil {
		t.Fatal(err)
	}
	defer b2.Finish(ctx, &runner.Result{Status: events.StatusCompleted})
	var o2 runner.Options
	o2.ContextBudget = 800
	b2.Configure(&o2)
	c, ok := o2.Compactor.(*Compactor)
	if len(o2.History) != 8 || !ok || c.Target != 400 || c.SessionID != id {
		t.Fatalf("history %d, compactor %+v", len(o2.History), o2.Compactor)
	}
}

func TestBindBusySession(t *testing.T) {
	ctx := context.Background()
	st, id := seed(t, 1, 1)
	first, err := Bind(ctx, st, BindOptions{SessionID: id})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Bind(ctx, st, BindOptions{SessionID: id})
	if !errors.Is(err, ErrBusy) || !errors.Is(err, store.ErrSessionBusy) {
		t.Fatalf("second bind: %v, want ErrBusy", err)
	}
	if err := first.Finish(ctx, &runner.Result{Status: events.StatusCompleted}); err != nil {
		t.Fatal(err)
	}
	// Finish released the session.
	again, err := Bind(ctx, st, BindOptions{SessionID: id})
	if err != nil {
		t.Fatalf("bind after finish: %v", err)
	}
	again.Finish(ctx, &runner.Result{Status: events.StatusCompleted})
}

func TestBindUnknownSession(t *testing.T) {
	st := openStore(t)
	_, err := Bind(context.Background(), st, BindOptions{SessionID: "ses_nope"})
	if !errors.Is(err, ErrNotFound) || !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("err %v, want ErrNotFound", err)
	}
}

func TestBindWatchCancel(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	b, err := Bind(ctx, st, BindOptions{Prompt: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Finish(ctx, &runner.Result{Status: events.StatusCancelled, ExitCode: events.ExitInterrupted})
	run, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	b.WatchCancel(run, cancel)
	if err := st.RequestCancel(ctx, b.RunID()); err != nil {
		t.Fatal(err)
	}
	<-run.Done()
	var sc *runner.StopCause
	if !errors.As(context.Cause(run), &sc) || sc.ExitCode != events.ExitInterrupted {
		t.Fatalf("cause %v", context.Cause(run))
	}
}
