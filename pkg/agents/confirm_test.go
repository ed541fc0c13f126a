package agents_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/runner"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// deployTool needs a person's confirmation; it counts its runs.
type deployTool struct{ ran *atomic.Int32 }

func (deployTool) Spec() tools.Spec {
	return tools.Spec{Name: "deploy", ID: "extension/ops:deploy", Description: "Deploy the build.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"env":{"type":"string"}}}`),
		Resident:   true, NeedsConfirm: true, Source: tools.SourceCommand}
}

func (d deployTool) Run(context.Context, *tools.Call) (any, error) {
	d.ran.Add(1)
	return "deployed", nil
}

// deployTree: the root starts a sync child "Deployer" that calls deploy.
func deployTree(t *testing.T) (*harness, *atomic.Int32, **providers.Request) {
	r := newRouter()
	var childFinal *providers.Request
	r.on("root task", call(spawnArgs("Deployer", "deploy task", "sync")), say("root done"))
	r.on("deploy task", call([2]string{"deploy", `{"env":"staging"}`}),
		func(ctx context.Context, req *providers.Request) (*providers.Response, error) {
			childFinal = req
			return say("deployed it")(ctx, req)
		})
	h := newHarness(t, r)
	ran := &atomic.Int32{}
	h.extra = []tools.Tool{deployTool{ran: ran}}
	return h, ran, &childFinal
}

func TestChildConfirmsOverTheRootsDriver(t *testing.T) {
	h, ran, childFinal := deployTree(t)
	in, out := io.Pipe()
	defer out.Close()
	d := runner.NewDriver(in, func() {}, func(string, string) {})
	h.confirmer = runner.NewConfirmer(false, runner.AskSources{Driver: d})
	h.rec.ch = make(chan *events.Envelope, 256)
	var seen []map[string]any
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for e := range h.rec.ch {
			if e.Type != events.ConfirmRequest {
				continue
			}
			p := e.Payload.(map[string]any)
			seen = append(seen, p)
			line, _ := json.Marshal(map[string]any{"type": "confirm.result", "call_id": p["call_id"], "decision": "allow"})
			_, _ = out.Write(append(line, '\n'))
		}
	}()
	res := h.run(context.Background(), "root task")
	close(h.rec.ch)
	wg.Wait()
	if res.Status != events.StatusCompleted {
		t.Fatalf("root = %s", res.Status)
	}
	if len(seen) != 1 {
		t.Fatalf("the root's stream showed %d confirm.request events", len(seen))
	}
	child := h.tree()[1].ID
	if seen[0]["title"] != "Deployer" || seen[0]["call_id"] != child+"/call_1" || seen[0]["tool"] != "deploy" {
		t.Fatalf("confirm.request in the root's stream: %v", seen[0])
	}
	results := h.rec.find("confirm.result")
	if len(results) != 1 || !strings.Contains(results[0], `"decision":"allow"`) || !strings.Contains(results[0], `"via":"driver"`) {
		t.Fatalf("confirm.result in the root's stream: %v", results)
	}
	if ran.Load() != 1 {
		t.Fatalf("deploy ran %d times", ran.Load())
	}
	if r := toolResults(*childFinal); len(r) != 1 || !strings.Contains(r[0], "deployed") {
		t.Fatalf("the child got %q", r)
	}
}

// fakeTTY answers "y" and keeps what was written to it.
type fakeTTY struct {
	in  *strings.Reader
	out *bytes.Buffer
}

func (f fakeTTY) Read(p []byte) (int, error)  { return f.in.Read(p) }
func (f fakeTTY) Write(p []byte) (int, error) { return f.out.Write(p) }
func (fakeTTY) Close() error                  { return nil }

func TestChildConfirmsOnTheTerminalWithItsTitle(t *testing.T) {
	h, ran, _ := deployTree(t)
	var shown bytes.Buffer
	h.confirmer = runner.NewConfirmer(false, runner.AskSources{Terminal: func() (io.ReadWriteCloser, error) {
		return fakeTTY{in: strings.NewReader("y\n"), out: &shown}, nil
	}})
	if res := h.run(context.Background(), "root task"); res.Status != events.StatusCompleted {
		t.Fatalf("root = %s", res.Status)
	}
	if !strings.Contains(shown.String(), "[Deployer] The sub-agent wants to run deploy [extension/ops:deploy]") {
		t.Fatalf("the terminal showed %q", shown.String())
	}
	if ran.Load() != 1 {
		t.Fatalf("deploy ran %d times", ran.Load())
	}
}
