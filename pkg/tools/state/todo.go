package state

import (
	"context"
	"strings"

	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// Todo list limits.
const (
	// MaxTodos is the most items a list holds.
	MaxTodos = 100
	// MaxTodoChars is the longest content or active_form, in characters.
	MaxTodoChars = 500
)

// EventTodoUpdated is the event tavo_todo_write emits after each write.
const EventTodoUpdated = string(events.TodoUpdated)

const todoWriteDescription = "Write the to-do list of this conversation, to plan multi-step work and show " +
	"progress. Each call replaces the whole list, so send every item each time, in order, with status " +
	"pending, in_progress or completed; at most one item may be in_progress. Mark an item in_progress when " +
	"you start it and completed as soon as it is done, and add items you discover. content says what to do " +
	`("Fetch the release notes"); active_form, optional, says it in progress ("Fetching the release notes"). ` +
	"The person running you sees every update. Skip it for simple one-step requests. " +
	`Returns {"todos":[…],"counts":{"pending","in_progress","completed"}}.`

// todoWrite is tavo_todo_write.
type todoWrite struct{ open Opener }

// Spec describes tavo_todo_write.
func (*todoWrite) Spec() tools.Spec {
	return spec(TodoWriteName, todoWriteDescription, todoWriteSchema)
}

// TodoResult is tavo_todo_write's result: the list as stored and how many
// items have each status.
type TodoResult struct {
	Todos  []store.Todo `json:"todos"`
	Counts TodoCounts   `json:"counts"`
}

// TodoCounts counts the items of a list by status.
type TodoCounts struct {
	Pending    int `json:"pending"`
	InProgress int `json:"in_progress"`
	Completed  int `json:"completed"`
}

type todoArgs struct {
	Todos []store.Todo `json:"todos"`
}

// check trims the texts and applies the rules the schema cannot express:
// non-blank content, at most one item in progress.
func (a *todoArgs) check(env *tools.Env) error {
	if len(a.Todos) > MaxTodos {
		return tools.InvalidArgument("todos", "array of at most 100 items", "array")
	}
	inProgress := -1
	for i := range a.Todos {
		t := &a.Todos[i]
		t.Content = strings.TrimSpace(t.Content)
		t.ActiveForm = strings.TrimSpace(t.ActiveForm)
		if t.Content == "" {
			return tools.InvalidArgument(tools.JoinPath("todos", i, "content"), "non-empty string", "string")
		}
		switch t.Status {
		case events.TodoPending, events.TodoCompleted:
		case events.TodoInProgress:
			if inProgress >= 0 {
				path := tools.JoinPath("todos", i, "status")
				e := tools.InvalidArgument(path, "pending or completed", "string")
				e.Message = "argument " + path + " is in_progress, but " + tools.JoinPath("todos", inProgress) +
					" already is; at most one item may be in_progress at a time."
				return e
			}
			inProgress = i
		default:
			return tools.InvalidArgument(tools.JoinPath("todos", i, "status"), "one of pending|in_progress|completed", "string")
		}
	}
	if env == nil || env.SessionID == "" {
		return tools.Errorf(tools.CodeResourceNotFound, "this run has no session, so it has no to-do list to write")
	}
	return nil
}

// Run stores the list, then announces it.
func (t *todoWrite) Run(ctx context.Context, call *tools.Call) (any, error) {
	return run(ctx, t.open, call, func(st *store.Store, a *todoArgs) (any, error) {
		if a.Todos == nil {
			a.Todos = []store.Todo{}
		}
		if err := st.SetTodos(ctx, call.Env.SessionID, a.Todos); err != nil {
			return nil, storeError(err, "the run's session no longer exists, so it has no to-do list")
		}
		res := TodoResult{Todos: a.Todos}
		ev := make([]events.Todo, len(a.Todos))
		for i, td := range a.Todos {
			ev[i] = events.Todo{Content: td.Content, Status: td.Status, ActiveForm: td.ActiveForm}
			switch td.Status {
			case events.TodoPending:
				res.Counts.Pending++
			case events.TodoInProgress:
				res.Counts.InProgress++
			case events.TodoCompleted:
				res.Counts.Completed++
			}
		}
		call.Env.EmitEvent(EventTodoUpdated, events.TodoUpdatedP{Todos: ev})
		return res, nil
	})
}
