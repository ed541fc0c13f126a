package state

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/tools"
	"github.com/tavo-cli/tavo/pkg/tools/toolstest"
)

// harness runs state tool calls through a real executor over a real store,
// so schema validation, the envelope and the budgets apply as in a run.
type harness struct {
	t       *testing.T
	dataDir string
	st      *store.Store
	x       *tools.Executor
	env     *tools.Env
	opens   int

	mu     sync.Mutex
	events []emitted
}

// emitted is one event a tool emitted.
type emitted struct {
	typ     string
	payload any
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	dir := t.TempDir()
	st, err := store.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for _, id := range []string{"ses_A", "ses_B"} {
		if _, err := st.CreateSession(context.Background(), id, "test "+id); err != nil {
			t.Fatal(err)
		}
	}
	h := &harness{t: t, dataDir: dir, st: st}
	cat, err := tools.NewCatalog(All(func(context.Context) (*store.Store, error) {
		h.opens++
		return st, nil
	})...)
	if err != nil {
		t.Fatal(err)
	}
	h.x = &tools.Executor{Catalog: cat, Budget: tools.NewBudget(0, 1<<30)}
	h.env = h.envFor("ses_A")
	return h
}

// envFor is a run's Env in session id ("" for none), recording events.
func (h *harness) envFor(id string) *tools.Env {
	return &tools.Env{RunID: "run_" + id, SessionID: id, Catalog: h.x.Catalog,
		Emit: func(typ string, p any) {
			h.mu.Lock()
			defer h.mu.Unlock()
			h.events = append(h.events, emitted{typ, p})
		}}
}

// envelope is a decoded result envelope.
type envelope = toolstest.Envelope

// call runs one call and decodes its envelope; the envelope must never show
// the data directory.
func (h *harness) call(env *tools.Env, name, args string) envelope {
	h.t.Helper()
	out := h.x.Execute(context.Background(), env, providers.ToolCall{ID: "c1", Name: name, Arguments: args})
	return toolstest.Decode(h.t, name, out.Envelope, h.dataDir)
}

// ok expects success and returns the result as compact JSON text.
func (h *harness) ok(name, args string) string {
	h.t.Helper()
	e := h.call(h.env, name, args)
	if !e.OK {
		h.t.Fatalf("%s %s: %+v", name, args, e.Error)
	}
	return string(e.Result)
}

// fail expects an error envelope with code and, when path is not "-",
// details.path equal to path.
func (h *harness) fail(env *tools.Env, name, args, code, path string) envelope {
	h.t.Helper()
	e := h.call(env, name, args)
	if e.OK || e.Error == nil || e.Error.Code != code {
		h.t.Fatalf("%s %.200s: got ok=%v %+v, want %s", name, args, e.OK, e.Error, code)
	}
	if path != "-" && e.Error.Details["path"] != path {
		h.t.Fatalf("%s %.200s: details %v, want path %q", name, args, e.Error.Details, path)
	}
	return e
}

// failingOpener is an Opener whose store cannot be opened.
func failingOpener(context.Context) (*store.Store, error) {
	return nil, errors.New("store: data dir /secret/place: permission denied")
}
