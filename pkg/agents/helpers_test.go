package agents_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/agents"
	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/runner"
	"github.com/tavo-cli/tavo/pkg/session"
	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/tools"
	"github.com/tavo-cli/tavo/pkg/tools/askuser"
	"github.com/tavo-cli/tavo/pkg/tools/subagent"
)

// step answers one request of a conversation; it may block (on a gate the
// test opens) and read the request (the notices a parent got).
type step func(ctx context.Context, req *providers.Request) (*providers.Response, error)

// router is an in-process provider that plays a script per conversation:
// the conversation is named by its first user message (the root's prompt,
// a child's instruction), so that children running at once each get their
// own replies whatever order their requests come in.
type router struct {
	mu      sync.Mutex
	script  map[string][]step
	seen    map[string]int
	arrived map[string]chan struct{} // closed at a conversation's first request
}

func newRouter() *router {
	return &router{script: map[string][]step{}, seen: map[string]int{}, arrived: map[string]chan struct{}{}}
}

// on scripts the conversation that starts with prompt.
func (r *router) on(prompt string, steps ...step) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.script[prompt] = steps
	if r.arrived[prompt] == nil {
		r.arrived[prompt] = make(chan struct{})
	}
}

// started is closed when the conversation sends its first request.
func (r *router) started(prompt string) <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.arrived[prompt] == nil {
		r.arrived[prompt] = make(chan struct{})
	}
	return r.arrived[prompt]
}

func (r *router) Protocol() providers.Protocol { return providers.ProtocolOpenAI }

func (r *router) Complete(ctx context.Context, req *providers.Request, _ providers.Sink) (*providers.Response, error) {
	key := ""
	for _, m := range req.Messages {
		if m.Role == providers.RoleUser {
			key = m.Text()
			break
		}
	}
	r.mu.Lock()
	i := r.seen[key]
	r.seen[key]++
	steps := r.script[key]
	if i == 0 && r.arrived[key] != nil {
		close(r.arrived[key])
	}
	r.mu.Unlock()
	if i >= len(steps) {
		return nil, fmt.Errorf("router: no step %d for %q", i+1, key)
	}
	resp, err := steps[i](ctx, req)
	if resp != nil {
		resp.Usage = providers.Usage{InputTokens: 10, OutputTokens: 1}
	}
	return resp, err
}

// say answers with text.
func say(text string) step {
	return func(context.Context, *providers.Request) (*providers.Response, error) {
		return &providers.Response{Message: providers.Message{Role: providers.RoleAssistant,
			Parts: []providers.Part{{Type: providers.PartText, Text: text}}}, FinishReason: providers.FinishStop}, nil
	}
}

// call asks for tools, each {name, arguments}.
func call(calls ...[2]string) step {
	return func(context.Context, *providers.Request) (*providers.Response, error) {
		m := providers.Message{Role: providers.RoleAssistant}
		for i, c := range calls {
			tc := providers.ToolCall{ID: fmt.Sprintf("call_%d", i+1), Name: c[0], Arguments: c[1]}
			m.Parts = append(m.Parts, providers.Part{Type: providers.PartToolCall, ToolCall: &tc})
		}
		return &providers.Response{Message: m, FinishReason: providers.FinishToolCalls}, nil
	}
}

// after waits for gate (or the run's end) before step s.
func after(gate <-chan struct{}, s step) step {
	return func(ctx context.Context, req *providers.Request) (*providers.Response, error) {
		select {
		case <-gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return s(ctx, req)
	}
}

// hang never answers: the run must be stopped.
func hang() step {
	return func(ctx context.Context, _ *providers.Request) (*providers.Response, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}
}

// spawnArgs are tavo_subagent's arguments.
func spawnArgs(title, instruction, mode string) [2]string {
	b, _ := json.Marshal(map[string]string{"title": title, "instruction": instruction, "mode": mode})
	return [2]string{agents.SpawnName, string(b)}
}

// toolResults are the tool results of a request, in order.
func toolResults(req *providers.Request) []string {
	var out []string
	for _, m := range req.Messages {
		for _, p := range m.Parts {
			if p.ToolResult != nil {
				out = append(out, p.ToolResult.Content)
			}
		}
	}
	return out
}

// userTexts are the user messages of a request after the first.
func userTexts(req *providers.Request) []string {
	var out []string
	for _, m := range req.Messages {
		if m.Role == providers.RoleUser && m.Text() != "" {
			out = append(out, m.Text())
		}
	}
	if len(out) > 0 {
		out = out[1:]
	}
	return out
}

// recorder is an events sink keeping the root's stream, and telling the
// test about each event as it comes.
type recorder struct {
	mu    sync.Mutex
	lines []string
	ch    chan *events.Envelope
}

func (r *recorder) WriteEvent(e *events.Envelope, line []byte) error {
	r.mu.Lock()
	r.lines = append(r.lines, string(line))
	r.mu.Unlock()
	if r.ch != nil {
		r.ch <- e
	}
	return nil
}

func (r *recorder) types() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, l := range r.lines {
		var e struct {
			Type string `json:"type"`
		}
		_ = json.Unmarshal([]byte(l), &e)
		out = append(out, e.Type)
	}
	return out
}

func (r *recorder) find(typ string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, l := range r.lines {
		if strings.Contains(l, `"type":"`+typ+`"`) {
			out = append(out, l)
		}
	}
	return out
}

// harness runs a root run over a store, as `tavo run` does.
type harness struct {
	t      *testing.T
	st     *store.Store
	p      providers.Provider
	limits agents.Limits
	asker  tools.Asker
	// confirmer is the root's confirmer; extra are tools added to the catalog.
	confirmer tools.Confirmer
	extra     []tools.Tool
	// session, when set, is the stored session the next run continues
	// (tavo session send), making it the root of that run's tree.
	session string
	// config is how the root's session is run (RootOptions.Config).
	config *session.Config
	rec    *recorder
	// rootRun and rootSession are the root's ids once it started.
	rootRun, rootSession string
}

func newHarness(t *testing.T, p providers.Provider) *harness {
	st, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &harness{t: t, st: st, p: p, rec: &recorder{},
		limits: agents.Limits{MaxDepth: 2, MaxRunning: 4, MaxPerRun: 16}}
}

func catalog(t testing.TB, extra ...tools.Tool) *tools.Catalog {
	cat, err := tools.NewCatalog(append(append([]tools.Tool{tools.NewToolSearch(), askuser.New()}, subagent.All()...), extra...)...)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// run runs the root with prompt until it ends, then checks that the whole
// tree ended: no run left running, each journal ending with run.completed.
func (h *harness) run(ctx context.Context, prompt string) *runner.Result {
	h.t.Helper()
	b, err := session.Bind(ctx, h.st, session.BindOptions{Prompt: prompt, SessionID: h.session})
	if err != nil {
		h.t.Fatal(err)
	}
	o := runner.Options{
		Provider: h.p, Model: "m", Prompt: providers.Message{Role: providers.RoleUser, Parts: []providers.Part{{Type: providers.PartText, Text: prompt}}},
		Catalog: catalog(h.t, h.extra...), ToolsEnabled: true, MaxRounds: 8, MaxToolCalls: 32, ToolTimeout: time.Minute,
		Asker: h.asker, Confirmer: h.confirmer,
	}
	b.Configure(&o)
	h.rootRun, h.rootSession = o.RunID, o.SessionID
	o.Emitter = events.NewEmitter(o.RunID, o.SessionID, nil, b, h.rec)
	ctx = agents.Root(ctx, &o, agents.RootOptions{Store: h.st, Limits: h.limits, Config: h.config})
	res := runner.Run(ctx, o)
	if err := b.Finish(ctx, res); err != nil {
		h.t.Fatal(err)
	}
	h.checkTreeEnded()
	return res
}

// checkTreeEnded: every run in the store ended, with run.completed last in
// its journal.
func (h *harness) checkTreeEnded() {
	h.t.Helper()
	ctx := context.Background()
	runs, _, err := h.st.ListRuns(ctx, "", 200, "")
	if err != nil {
		h.t.Fatal(err)
	}
	for _, r := range runs {
		if r.Status == store.StatusRunning {
			h.t.Errorf("run %s is left running", r.ID)
		}
		lines, err := h.st.Events(ctx, r.ID, 0, 0, 500)
		if err != nil {
			h.t.Fatal(err)
		}
		if len(lines) == 0 || !bytes.Contains(lines[len(lines)-1], []byte(`"type":"run.completed"`)) {
			h.t.Errorf("run %s: journal does not end with run.completed (%d lines)", r.ID, len(lines))
		}
	}
}

// journal returns a run's journal lines.
func (h *harness) journal(runID string) string {
	lines, err := h.st.Events(context.Background(), runID, 0, 0, 500)
	if err != nil {
		h.t.Fatal(err)
	}
	return string(bytes.Join(lines, []byte("\n")))
}

// children are the sessions started by the root, oldest first.
func (h *harness) tree() []store.TreeSession {
	tr, err := h.st.SessionTree(context.Background(), h.rootSession)
	if err != nil {
		h.t.Fatal(err)
	}
	return tr
}

// resultOf decodes a tool result envelope's result.
func resultOf(t *testing.T, envelope string, v any) {
	t.Helper()
	var env struct {
		OK     bool            `json:"ok"`
		Result json.RawMessage `json:"result"`
		Error  *tools.Error    `json:"error"`
	}
	if err := json.Unmarshal([]byte(envelope), &env); err != nil {
		t.Fatalf("%s: %v", envelope, err)
	}
	if !env.OK {
		t.Fatalf("tool failed: %s", envelope)
	}
	if err := json.Unmarshal(env.Result, v); err != nil {
		t.Fatalf("%s: %v", env.Result, err)
	}
}

// errorOf returns a failed tool result's code.
func errorOf(envelope string) string {
	var env struct {
		Error *tools.Error `json:"error"`
	}
	_ = json.Unmarshal([]byte(envelope), &env)
	if env.Error == nil {
		return ""
	}
	return env.Error.Code
}
