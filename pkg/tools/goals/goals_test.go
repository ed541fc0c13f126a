package goals

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"

	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/tools"
)

func TestGoalTools(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "data"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	st.CreateSession(ctx, "ses_1", "a")
	st.CreateSession(ctx, "ses_2", "b")
	ts := map[string]tools.Tool{}
	for _, tl := range All(func(context.Context) (*store.Store, error) { return st, nil }) {
		ts[tl.Spec().Name] = tl
	}
	var events []string
	call := func(name, sid, args string) (any, error) {
		env := &tools.Env{SessionID: sid, Emit: func(ty string, _ any) { events = append(events, ty) }}
		return ts[name].Run(ctx, &tools.Call{ID: "c", Args: json.RawMessage(args), Env: env})
	}
	res, err := call(CreateName, "ses_1", `{"condition":"tests pass","max_turns":3}`)
	if err != nil {
		t.Fatal(err)
	}
	id := res.(Result).GoalID
	if res.(Result).Status != store.GoalActive {
		t.Fatalf("create: %+v", res)
	}
	var te *tools.Error
	if _, err := call(CreateName, "ses_1", `{"condition":"another"}`); !errors.As(err, &te) || te.Code != tools.CodeLimitExceeded {
		t.Fatalf("second active goal: %v", err)
	}
	if _, err := call(CompleteName, "ses_2", `{"goal_id":"`+id+`"}`); !errors.As(err, &te) || te.Code != tools.CodeResourceNotFound {
		t.Fatalf("another session's goal: %v", err)
	}
	if res, err = call(CompleteName, "ses_1", `{"goal_id":"`+id+`"}`); err != nil || res.(Result).Status != store.GoalCompleted {
		t.Fatalf("complete: %+v %v", res, err)
	}
	if _, err := call(CancelName, "ses_1", `{"goal_id":"`+id+`"}`); !errors.As(err, &te) || te.Code != tools.CodeInvalidArguments {
		t.Fatalf("cancel an ended goal: %v", err)
	}
	if len(events) != 2 || events[0] != "goal.updated" {
		t.Fatalf("events %v", events)
	}
}
