package loops

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"

	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/tools"
)

func TestLoopTools(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "data"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	st.CreateSession(ctx, "ses_1", "a")
	var scheduled []string
	ts := map[string]tools.Tool{}
	for _, tl := range All(Deps{Open: func(context.Context) (*store.Store, error) { return st, nil },
		Schedule: func(_ context.Context, l *store.Loop) error { scheduled = append(scheduled, l.ID); return nil }}) {
		ts[tl.Spec().Name] = tl
	}
	call := func(ctx context.Context, name, args string) (any, error) {
		return ts[name].Run(ctx, &tools.Call{ID: "c", Args: json.RawMessage(args), Env: &tools.Env{SessionID: "ses_1"}})
	}
	res, err := call(ctx, CreateName, `{"prompt":"check","interval_seconds":60,"max_turns":2}`)
	if err != nil {
		t.Fatal(err)
	}
	id := res.(map[string]any)["loop_id"].(string)
	if len(scheduled) != 1 || scheduled[0] != id {
		t.Fatalf("scheduled %v", scheduled)
	}
	var te *tools.Error
	if _, err := call(ctx, CreateName, `{"prompt":"x","interval_seconds":5}`); !errors.As(err, &te) || te.Code != tools.CodeInvalidArguments {
		t.Fatalf("5 s interval: %v", err)
	}
	// Every move goes to the queue too: a pause's old firing is cancelled
	// there, a resume's new one queued.
	if res, err = call(ctx, PauseName, `{"loop_id":"`+id+`"}`); err != nil || res.(View).Status != store.LoopPaused || len(scheduled) != 2 {
		t.Fatalf("pause %+v %v (scheduled %v)", res, err, scheduled)
	}
	if res, err = call(ctx, ResumeName, `{"loop_id":"`+id+`"}`); err != nil || res.(View).Status != store.LoopActive || len(scheduled) != 3 {
		t.Fatalf("resume %+v %v", res, err)
	}
	if _, err := call(ctx, CompleteName, `{"reason":"done"}`); !errors.As(err, &te) || te.Code != tools.CodeResourceNotFound {
		t.Fatalf("complete outside a loop's run: %v", err)
	}
	if res, err = call(WithLoop(ctx, id), CompleteName, `{"reason":"done"}`); err != nil || res.(View).Status != store.LoopCompleted {
		t.Fatalf("complete %+v %v", res, err)
	}
	if _, err := call(ctx, CancelName, `{"loop_id":"`+id+`"}`); !errors.As(err, &te) || te.Code != tools.CodeInvalidArguments {
		t.Fatalf("cancel a completed loop: %v", err)
	}
	res, err = call(ctx, ListName, `{}`)
	if ls := res.(map[string]any)["loops"].([]View); err != nil || len(ls) != 1 || ls[0].Reason != "done" {
		t.Fatalf("list %+v %v", res, err)
	}
}
