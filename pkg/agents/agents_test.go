package agents_test

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/tavo-cli/tavo/pkg/agents"
	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/runner"
	"github.com/tavo-cli/tavo/pkg/session"
	"github.com/tavo-cli/tavo/pkg/tools"
)

func TestSyncChildDepth1(t *testing.T) {
	r := newRouter()
	var final *providers.Request
	r.on("root task",
		call(spawnArgs("Child one", "child task", "sync")),
		func(ctx context.Context, req *providers.Request) (*providers.Response, error) {
			final = req
			return say("root done")(ctx, req)
		})
	r.on("child task", say("child result"))
	h := newHarness(t, r)
	res := h.run(context.Background(), "root task")
	if res.Status != events.StatusCompleted || res.Text != "root done" {
		t.Fatalf("root = %s %q", res.Status, res.Text)
	}
	var got agents.SyncResult
	resultOf(t, toolResults(final)[0], &got)
	if got.Status != events.StatusCompleted || got.Text != "child result" || got.Usage.InputTokens != 10 {
		t.Fatalf("sync result = %+v", got)
	}
	// Usage: two root requests and one child request, the child listed.
	if res.Usage.InputTokens != 30 {
		t.Errorf("root usage = %+v, want the child's included", res.Usage)
	}
	done := h.rec.find("run.completed")[0]
	if !strings.Contains(done, `"subagents":[{"sub_session_id":"`+got.SubSessionID+`"`) {
		t.Errorf("run.completed lacks usage.subagents: %s", done)
	}
	if len(h.rec.find("subagent.started")) != 1 || len(h.rec.find("subagent.completed")) != 1 {
		t.Errorf("stream: %v", h.rec.types())
	}
	tr := h.tree()
	if len(tr) != 2 || tr[1].ParentSessionID != h.rootSession || tr[1].RootSessionID != h.rootSession || tr[1].Title != "Child one" {
		t.Fatalf("tree = %+v", tr)
	}
	runs, err := h.st.ChildRuns(context.Background(), h.rootRun)
	if err != nil || len(runs) != 1 || runs[0].ID != got.RunID {
		t.Fatalf("child runs = %+v, %v", runs, err)
	}
	// The child's events are in its own journal, not the root's stream.
	if j := h.journal(got.RunID); !strings.Contains(j, `"text":"child result"`) {
		t.Errorf("child journal: %s", j)
	}
	for _, l := range h.rec.lines {
		if strings.Contains(l, `"run_id":"`+got.RunID+`","session_id"`) {
			t.Errorf("a child event reached the root's stream: %s", l)
		}
	}
}

func TestAsyncChildWithSyncGrandchild(t *testing.T) {
	r := newRouter()
	var third, grandReq *providers.Request
	// The leaf answers only once the root has sent its early answer's
	// request, so the middle agent is surely still running then (else its
	// notice could reach that request and no waiting round would follow).
	rootAnswering := make(chan struct{})
	r.on("root task",
		call(spawnArgs("Middle", "middle task", "async")),
		func(ctx context.Context, req *providers.Request) (*providers.Response, error) {
			close(rootAnswering)
			return say("I will wait for the middle agent")(ctx, req)
		},
		func(ctx context.Context, req *providers.Request) (*providers.Response, error) {
			third = req
			return say("root done")(ctx, req)
		})
	r.on("middle task",
		call(spawnArgs("Leaf", "leaf task", "sync")),
		say("middle done"))
	r.on("leaf task", func(ctx context.Context, req *providers.Request) (*providers.Response, error) {
		grandReq = req
		select {
		case <-rootAnswering:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return say("leaf done")(ctx, req)
	})
	h := newHarness(t, r)
	res := h.run(context.Background(), "root task")
	if res.Status != events.StatusCompleted || res.Text != "root done" {
		t.Fatalf("root = %s %q", res.Status, res.Text)
	}
	// The root answered while the middle agent ran: it waited and got one
	// more round, with the notice.
	if third == nil {
		t.Fatal("the root got no round after its children ended")
	}
	notes := userTexts(third)
	if len(notes) != 1 || !strings.Contains(notes[0], `"status":"completed"`) || !strings.Contains(notes[0], `"text":"middle done"`) {
		t.Fatalf("notices = %q", notes)
	}
	// At the depth limit the leaf runs without sub-agent tools.
	for _, s := range grandReq.Tools {
		if strings.HasPrefix(s.Name, "tavo_subagent") {
			t.Errorf("depth-2 child sees %s", s.Name)
		}
	}
	tr := h.tree()
	if len(tr) != 3 || tr[2].Depth != 2 || tr[2].RootSessionID != h.rootSession {
		t.Fatalf("tree = %+v", tr)
	}
	if res.Usage.InputTokens != 60 { // 3 root + 2 middle + 1 leaf
		t.Errorf("usage = %+v", res.Usage)
	}
}

func TestFourAsyncChildrenFinishInReverseOrder(t *testing.T) {
	r := newRouter()
	gates := make([]chan struct{}, 4)
	var spawns [][2]string
	for i := range gates {
		gates[i] = make(chan struct{})
		task := "task " + string(rune('A'+i))
		spawns = append(spawns, spawnArgs("Worker "+string(rune('A'+i)), task, "async"))
		r.on(task, after(gates[i], say("result "+string(rune('A'+i)))))
	}
	waiting := make(chan struct{})
	var last *providers.Request
	r.on("root task",
		call(spawns...),
		func(ctx context.Context, req *providers.Request) (*providers.Response, error) {
			close(waiting)
			return say("waiting")(ctx, req)
		},
		func(ctx context.Context, req *providers.Request) (*providers.Response, error) {
			last = req
			return say("all done")(ctx, req)
		})
	h := newHarness(t, r)
	h.rec.ch = make(chan *events.Envelope, 256)
	go func() {
		<-waiting
		for i := 3; i >= 0; i-- {
			close(gates[i])
			for e := range h.rec.ch {
				if e.Type == events.SubagentCompleted {
					break
				}
			}
		}
		for range h.rec.ch {
		}
	}()
	res := h.run(context.Background(), "root task")
	close(h.rec.ch)
	if res.Status != events.StatusCompleted {
		t.Fatalf("root = %s %+v", res.Status, res.Err)
	}
	notes := userTexts(last)
	if len(notes) != 4 {
		t.Fatalf("notices = %q", notes)
	}
	for i, want := range []string{"result D", "result C", "result B", "result A"} {
		if !strings.Contains(notes[i], want) {
			t.Errorf("notice %d = %s, want %s", i, notes[i], want)
		}
	}
	if len(h.rec.find("subagent.completed")) != 4 {
		t.Errorf("stream: %v", h.rec.types())
	}
}

func TestStopMiddleNode(t *testing.T) {
	r := newRouter()
	var stopResult string
	r.on("root task",
		call(spawnArgs("Middle", "middle task", "async")),
		after(r.started("leaf task"), func(ctx context.Context, req *providers.Request) (*providers.Response, error) {
			var s agents.Started
			resultOf(t, toolResults(req)[0], &s)
			return call([2]string{agents.StopName, `{"sub_session_id":"` + s.SubSessionID + `"}`})(ctx, req)
		}),
		func(ctx context.Context, req *providers.Request) (*providers.Response, error) {
			stopResult = toolResults(req)[1]
			return say("stopped it")(ctx, req)
		})
	r.on("middle task", call(spawnArgs("Leaf", "leaf task", "async")), say("middle waits"))
	r.on("leaf task", hang())
	h := newHarness(t, r)
	res := h.run(context.Background(), "root task")
	if res.Status != events.StatusCompleted {
		t.Fatalf("root = %s %+v", res.Status, res.Err)
	}
	var got agents.StopResult
	resultOf(t, stopResult, &got)
	if got.TotalStopped != 2 || got.StoppedSessions[0].Title != "Leaf" || got.StoppedSessions[1].Title != "Middle" {
		t.Fatalf("stop result = %+v, want the leaf then the middle", got)
	}
	tr := h.tree()
	for _, m := range tr[1:] {
		if m.Status != events.StatusCancelled {
			t.Errorf("%s ended %s", m.Title, m.Status)
		}
	}
	if len(h.rec.find("subagent.stopped")) != 1 {
		t.Errorf("root stream: %v", h.rec.types())
	}
}

func TestCancelMidTreeLeavesNothing(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	r := newRouter()
	r.on("root task", call(spawnArgs("Middle", "middle task", "async")), hang())
	r.on("middle task", call(spawnArgs("Leaf", "leaf task", "async")), hang())
	r.on("leaf task", hang())
	h := newHarness(t, r)
	ctx, cancel := context.WithCancelCause(context.Background())
	go func() {
		<-r.started("leaf task")
		cancel(&runner.StopCause{Reason: "interrupted (SIGINT)", ExitCode: events.ExitInterrupted})
	}()
	res := h.run(ctx, "root task")
	if res.Status != events.StatusCancelled || res.ExitCode != events.ExitInterrupted {
		t.Fatalf("root = %s %d", res.Status, res.ExitCode)
	}
	tr := h.tree()
	if len(tr) != 3 {
		t.Fatalf("tree = %+v", tr)
	}
	for _, m := range tr {
		if m.Status != events.StatusCancelled {
			t.Errorf("%s ended %s", m.Title, m.Status)
		}
	}
	// Leaves first: the leaf's run ended before the middle's, and the
	// middle's before the root's.
	var ended []int64
	for _, m := range tr {
		runs, _, _ := h.st.ListRuns(context.Background(), m.ID, 1, "")
		ended = append(ended, runs[0].EndedAt.UnixNano())
	}
	if !(ended[2] <= ended[1] && ended[1] <= ended[0]) {
		t.Errorf("runs did not end leaves first: %v", ended)
	}
	h.st.Close()
}

func TestChildAsksOverTheRootsDriver(t *testing.T) {
	r := newRouter()
	var childFinal *providers.Request
	r.on("root task", call(spawnArgs("Asker", "ask task", "sync")), say("root done"))
	r.on("ask task",
		call([2]string{"tavo_ask_user", `{"question":"Which colour?"}`}),
		func(ctx context.Context, req *providers.Request) (*providers.Response, error) {
			childFinal = req
			return say("got it")(ctx, req)
		})
	h := newHarness(t, r)
	in, out := io.Pipe()
	defer out.Close()
	d := runner.NewDriver(in, func() {}, func(string, string) {})
	h.asker = runner.NewAsker(runner.AskAuto, runner.AskSources{Driver: d})
	h.rec.ch = make(chan *events.Envelope, 256)
	go func() {
		for e := range h.rec.ch {
			if e.Type != events.AskQuestion {
				continue
			}
			q := e.Payload.(tools.Question)
			if q.Question != "[Asker] Which colour?" {
				t.Errorf("question as the root's channel shows it: %q", q.Question)
			}
			line, _ := json.Marshal(map[string]string{"type": "ask.answer", "call_id": q.CallID, "answer": "blue"})
			_, _ = out.Write(append(line, '\n'))
		}
	}()
	res := h.run(context.Background(), "root task")
	close(h.rec.ch)
	if res.Status != events.StatusCompleted {
		t.Fatalf("root = %s", res.Status)
	}
	if results := toolResults(childFinal); len(results) != 1 || !strings.Contains(results[0], `"answer":"blue"`) {
		t.Fatalf("the child got %q", results)
	}
}

func TestChildUnderAskFailIsInputRequired(t *testing.T) {
	r := newRouter()
	var final *providers.Request
	r.on("root task", call(spawnArgs("Asker", "ask task", "sync")), func(ctx context.Context, req *providers.Request) (*providers.Response, error) {
		final = req
		return say("root done")(ctx, req)
	})
	r.on("ask task", call([2]string{"tavo_ask_user", `{"question":"Which colour?"}`}))
	h := newHarness(t, r)
	h.asker = runner.NewAsker(runner.AskFail, runner.AskSources{})
	res := h.run(context.Background(), "root task")
	if res.Status != events.StatusCompleted {
		t.Fatalf("root = %s", res.Status)
	}
	var got agents.SyncResult
	resultOf(t, toolResults(final)[0], &got)
	if got.Status != events.StatusInputRequired {
		t.Fatalf("child status = %s, want input_required", got.Status)
	}
}

func TestLimits(t *testing.T) {
	r := newRouter()
	var second *providers.Request
	secondArrived := make(chan struct{})
	r.on("root task",
		call(spawnArgs("One", "task one", "async"), spawnArgs("Two", "task two", "async")),
		func(ctx context.Context, req *providers.Request) (*providers.Response, error) {
			second = req
			close(secondArrived)
			return say("done")(ctx, req)
		},
		say("done"))
	// Child one runs until the root has tried both.
	r.on("task one", after(secondArrived, say("one done")))
	r.on("task two", say("two done"))
	h := newHarness(t, r)
	h.limits.MaxRunning = 1
	h.limits.MaxDepth = 1
	h.run(context.Background(), "root task")
	results := toolResults(second)
	if errorOf(results[0]) != "" || errorOf(results[1]) != tools.CodeLimitExceeded {
		t.Fatalf("results = %q", results)
	}
}

func TestLimitPerRootRun(t *testing.T) {
	r := newRouter()
	var last *providers.Request
	r.on("root task",
		call(spawnArgs("One", "task one", "sync")),
		call(spawnArgs("Two", "task two", "sync")),
		func(ctx context.Context, req *providers.Request) (*providers.Response, error) {
			last = req
			return say("done")(ctx, req)
		})
	r.on("task one", say("one done"))
	h := newHarness(t, r)
	h.limits.MaxPerRun = 1
	h.run(context.Background(), "root task")
	if results := toolResults(last); errorOf(results[1]) != tools.CodeLimitExceeded {
		t.Fatalf("results = %q", results)
	}
}

func TestTargetsOutsideTheTreeAreDenied(t *testing.T) {
	r := newRouter()
	h := newHarness(t, r)
	if _, err := h.st.CreateSession(context.Background(), "ses_other", "other"); err != nil {
		t.Fatal(err)
	}
	var last, childLast *providers.Request
	r.on("root task",
		func(ctx context.Context, req *providers.Request) (*providers.Response, error) {
			return call(
				[2]string{agents.MessageName, `{"sub_session_id":"ses_other"}`},
				[2]string{agents.StopName, `{"sub_session_id":"` + h.rootSession + `"}`},
				spawnArgs("Child", "child task", "sync"),
			)(ctx, req)
		},
		func(ctx context.Context, req *providers.Request) (*providers.Response, error) {
			last = req
			return say("done")(ctx, req)
		})
	r.on("child task",
		func(ctx context.Context, req *providers.Request) (*providers.Response, error) {
			return call([2]string{agents.SendName, `{"sub_session_id":"` + h.rootSession + `","message":"hi"}`})(ctx, req)
		},
		func(ctx context.Context, req *providers.Request) (*providers.Response, error) {
			childLast = req
			return say("child done")(ctx, req)
		})
	h.run(context.Background(), "root task")
	results := toolResults(last)
	if errorOf(results[0]) != tools.CodePermissionDenied || errorOf(results[1]) != tools.CodePermissionDenied {
		t.Fatalf("root results = %q", results)
	}
	if results := toolResults(childLast); errorOf(results[0]) != tools.CodePermissionDenied {
		t.Fatalf("a child targeting its parent: %q", results)
	}
}

func TestSendToBusyChildIsQueued(t *testing.T) {
	r := newRouter()
	sent := make(chan struct{})
	var childSecond *providers.Request
	var sendResult string
	r.on("root task",
		call(spawnArgs("Worker", "work task", "async")),
		after(r.started("work task"), func(ctx context.Context, req *providers.Request) (*providers.Response, error) {
			var s agents.Started
			resultOf(t, toolResults(req)[0], &s)
			return call([2]string{agents.SendName, `{"sub_session_id":"` + s.SubSessionID + `","message":"also check the footer"}`})(ctx, req)
		}),
		func(ctx context.Context, req *providers.Request) (*providers.Response, error) {
			sendResult = toolResults(req)[1]
			close(sent)
			return say("waiting")(ctx, req)
		},
		say("root done"))
	r.on("work task",
		after(sent, call([2]string{agents.ListName, `{}`})),
		func(ctx context.Context, req *providers.Request) (*providers.Response, error) {
			childSecond = req
			return say("worker done")(ctx, req)
		})
	h := newHarness(t, r)
	res := h.run(context.Background(), "root task")
	if res.Status != events.StatusCompleted {
		t.Fatalf("root = %s %+v", res.Status, res.Err)
	}
	var s agents.Started
	resultOf(t, sendResult, &s)
	if s.Status != "queued" {
		t.Fatalf("send = %+v", s)
	}
	if notes := userTexts(childSecond); len(notes) != 1 || !strings.Contains(notes[0], "also check the footer") {
		t.Fatalf("the child's next request has %q", notes)
	}
}

// TestSendToAChildSessionRootsANewTree: `tavo session send CHILD` makes
// the child the root of its run's tree, with depths counted from it: a
// grandchild it already had (stored two deep) is one deep in the new tree
// and may start sub-agents of its own.
func TestSendToAChildSessionRootsANewTree(t *testing.T) {
	r := newRouter()
	h := newHarness(t, r)
	var grandchild string
	var deeper *providers.Request
	r.on("root task", call(spawnArgs("A", "a task", "sync")), say("root done"))
	r.on("a task",
		call(spawnArgs("G", "g task", "sync")), say("a done"),
		// The second run, on A's session.
		func(ctx context.Context, req *providers.Request) (*providers.Response, error) {
			return call([2]string{agents.SendName, `{"sub_session_id":"` + grandchild + `","message":"go deeper"}`})(ctx, req)
		},
		say("waiting for G"), say("a done again"))
	r.on("g task", say("g done"),
		call(spawnArgs("H", "h task", "sync")),
		func(ctx context.Context, req *providers.Request) (*providers.Response, error) {
			deeper = req
			return say("g done again")(ctx, req)
		})
	r.on("h task", say("h done"))
	if res := h.run(context.Background(), "root task"); res.Status != events.StatusCompleted {
		t.Fatalf("first run = %s", res.Status)
	}
	tr := h.tree()
	if len(tr) != 3 || tr[2].Depth != 2 {
		t.Fatalf("tree after the first run: %+v", tr)
	}
	grandchild = tr[2].ID
	h.session = tr[1].ID
	if res := h.run(context.Background(), "again"); res.Status != events.StatusCompleted {
		t.Fatalf("second run = %s: %+v", res.Status, res.Err)
	}
	if deeper == nil {
		t.Fatal("G's second run did not get its sub-agent's result")
	}
	var got agents.SyncResult
	resultOf(t, toolResults(deeper)[0], &got)
	if got.Status != events.StatusCompleted || got.Text != "h done" {
		t.Fatalf("G's sub-agent: %+v", got)
	}
	// The store keeps one tree, from the first root.
	tr = h.tree()
	if len(tr) != 4 || tr[3].Title != "H" || tr[3].Depth != 3 || tr[3].ParentSessionID != grandchild {
		t.Fatalf("tree after the second run: %+v", tr)
	}
}

// TestChildSessionKeepsTheRootsConfig: a child's session is stored with
// how the root's is run, so `tavo session send CHILD` runs it the same way.
func TestChildSessionKeepsTheRootsConfig(t *testing.T) {
	r := newRouter()
	r.on("root task", call(spawnArgs("Helper", "help task", "sync")), say("root done"))
	r.on("help task", say("helped"))
	h := newHarness(t, r)
	h.config = &session.Config{Model: "gpt-4.1", ReasoningContext: "keep"}
	if res := h.run(context.Background(), "root task"); res.Status != events.StatusCompleted {
		t.Fatalf("root = %s", res.Status)
	}
	tr := h.tree()
	if len(tr) != 2 {
		t.Fatalf("tree: %+v", tr)
	}
	doc, err := h.st.SessionConfig(context.Background(), tr[1].ID)
	if err != nil {
		t.Fatal(err)
	}
	if string(doc) != `{"model":"gpt-4.1","reasoning_context":"keep"}` {
		t.Fatalf("the child's session config = %s", doc)
	}
}
