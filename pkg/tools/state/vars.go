package state

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// listValueBytes is the largest value tavo_var_list shows inline; larger
// ones are left out so one big variable cannot crowd the others out of the
// result budget.
const listValueBytes = 1 << 10

const varGetDescription = "Read a variable saved with tavo_var_set, from the chat scope (this conversation, the " +
	"default) or the global scope (shared by every conversation). A name that is not set is resource_not_found; " +
	`tavo_var_list shows the names that are. Returns {"name","scope","value","bytes"}; value is the JSON value as saved.`

const varSetDescription = "Save a JSON value of any type (string, number, boolean, null, array, object) under a " +
	"name, replacing the previous value, so later steps, runs or conversations can read it with tavo_var_get. " +
	`name is a dotted path such as "user.prefs.theme": segments of letters, digits, _ or - joined by dots; each ` +
	"name is a separate variable. scope chat (default) keeps it with this conversation; global shares it with " +
	"every conversation. Keep values small: for images, audio, base64, data URLs or anything over 64 KiB save a " +
	"file with tavo_file_save and store its path here (such values are still saved, with a warning). At most " +
	`1 MiB. Returns {"name","scope","bytes","warning"?}.`

const varDeleteDescription = "Delete a variable from the chat scope (default) or the global scope. Deleting a name " +
	`that is not set is resource_not_found. Returns {"deleted":true,"name","scope"}.`

const varListDescription = "List the variables of one scope, chat (default) or global, sorted by name; prefix keeps " +
	`only the names that start with it, like "user.". Returns {"scope","variables":[{"name","bytes","value"}]}; ` +
	"a value over 1 KiB is left out and marked omitted: read it with tavo_var_get."

// varGet is tavo_var_get.
type varGet struct{ open Opener }

// varSet is tavo_var_set.
type varSet struct{ open Opener }

// varDelete is tavo_var_delete.
type varDelete struct{ open Opener }

// varList is tavo_var_list.
type varList struct{ open Opener }

// Spec describes tavo_var_get.
func (*varGet) Spec() tools.Spec { return spec(VarGetName, varGetDescription, varNameSchema) }

// Spec describes tavo_var_set.
func (*varSet) Spec() tools.Spec { return spec(VarSetName, varSetDescription, varSetSchema) }

// Spec describes tavo_var_delete.
func (*varDelete) Spec() tools.Spec { return spec(VarDeleteName, varDeleteDescription, varNameSchema) }

// Spec describes tavo_var_list.
func (*varList) Spec() tools.Spec { return spec(VarListName, varListDescription, varListSchema) }

// VarResult is tavo_var_get's result.
type VarResult struct {
	Name  string          `json:"name"`
	Scope string          `json:"scope"`
	Value json.RawMessage `json:"value"`
	Bytes int             `json:"bytes"`
	// RunLocal marks a run-local variable (--var): this run only, never
	// stored.
	RunLocal bool `json:"run_local,omitempty"`
}

// SetResult is tavo_var_set's result. Bytes is the size of the value as
// stored (compact JSON).
type SetResult struct {
	Name     string `json:"name"`
	Scope    string `json:"scope"`
	Bytes    int    `json:"bytes"`
	Warning  string `json:"warning,omitempty"`
	RunLocal bool   `json:"run_local,omitempty"`
}

// DeleteResult is tavo_var_delete's result.
type DeleteResult struct {
	Deleted  bool   `json:"deleted"`
	Name     string `json:"name"`
	Scope    string `json:"scope"`
	RunLocal bool   `json:"run_local,omitempty"`
}

// ListResult is tavo_var_list's result.
type ListResult struct {
	Scope     string      `json:"scope"`
	Variables []ListEntry `json:"variables"`
}

// ListEntry is one variable of a listing; Value is absent and Omitted set
// when the value is over 1 KiB.
type ListEntry struct {
	Name     string          `json:"name"`
	Bytes    int             `json:"bytes"`
	Value    json.RawMessage `json:"value,omitempty"`
	Omitted  bool            `json:"omitted,omitempty"`
	RunLocal bool            `json:"run_local,omitempty"`
}

// varArgs are the arguments every variable tool may take; each schema
// admits only its own subset.
type varArgs struct {
	Name   string          `json:"name"`
	Scope  string          `json:"scope"`
	Value  json.RawMessage `json:"value"`
	Prefix string          `json:"prefix"`

	// session is the chat scope's session ("" for global), set by where.
	session string
}

// where resolves scope (chat when absent) against the run's session.
func (a *varArgs) where(env *tools.Env) error {
	switch a.Scope {
	case "":
		a.Scope = store.ScopeChat
	case store.ScopeChat, store.ScopeGlobal:
	default:
		return tools.InvalidArgument("scope", "one of chat|global", "string")
	}
	if a.Scope == store.ScopeGlobal {
		return nil
	}
	if env != nil {
		a.session = env.SessionID
	}
	if a.session == "" {
		return &tools.Error{Code: tools.CodeInvalidArguments,
			Message: `this run has no session, so there is no chat scope; use scope "global"`,
			Details: map[string]any{"path": "scope", "expected": "global", "actualType": "string"}}
	}
	return nil
}

// named checks the name and the scope.
func (a *varArgs) named(env *tools.Env) error {
	if err := store.CheckVarName(a.Name); err != nil {
		e := tools.InvalidArgument("name", `dotted name like "user.prefs.theme": letters, digits, _ or - in dot-separated segments`, "string")
		e.Message = err.Error() + "."
		return e
	}
	return a.where(env)
}

// runVars are the run-local variables the call sees: those of its run's
// context in the chat scope, none in the global one.
func (a *varArgs) runVars(ctx context.Context) *RunVars {
	if a.Scope != store.ScopeChat {
		return nil
	}
	return runVarsOf(ctx)
}

// listEntry is one variable of a listing, its value left out over 1 KiB.
func listEntry(name string, v json.RawMessage) ListEntry {
	e := ListEntry{Name: name, Bytes: len(v)}
	if len(v) > listValueBytes {
		e.Omitted = true
	} else {
		e.Value = v
	}
	return e
}

// notSet is the resource_not_found message for a missing variable.
func (a *varArgs) notSet() string {
	return "no " + a.Scope + " variable " + strconv.Quote(a.Name) + " is set; tavo_var_list shows the names that are"
}

// getArgs, setArgs, deleteArgs and listArgs give each tool its own checks.
type (
	getArgs struct{ varArgs }
	setArgs struct {
		varArgs
		warning string // from PrepareValue, for the result
	}
	deleteArgs struct{ varArgs }
	listArgs   struct{ varArgs }
)

func (a *getArgs) check(env *tools.Env) error    { return a.named(env) }
func (a *deleteArgs) check(env *tools.Env) error { return a.named(env) }
func (a *listArgs) check(env *tools.Env) error   { return a.where(env) }

// check also applies the value rules, which the store applies again as it
// writes, and keeps the compact value and its warning for the result.
func (a *setArgs) check(env *tools.Env) error {
	if err := a.named(env); err != nil {
		return err
	}
	if len(a.Value) == 0 {
		return tools.InvalidArgument("value", "any JSON value", "missing")
	}
	compact, warning, err := store.PrepareValue(a.Value)
	if err != nil {
		return valueError(err)
	}
	a.Value, a.warning = compact, warning
	return nil
}

// valueError turns the store's refusal of a value into the envelope's
// terms: limit_exceeded over the size limit, invalid_arguments otherwise.
func valueError(err error) error {
	var le *store.LimitError
	if errors.As(err, &le) {
		return &tools.Error{Code: tools.CodeLimitExceeded, Message: le.Error() + ".",
			Details: map[string]any{"path": "value", "limitBytes": le.Limit, "actualBytes": le.Actual}}
	}
	return tools.InvalidArgument("value", "any JSON value", "invalid JSON")
}

// Run reads the variable.
func (t *varGet) Run(ctx context.Context, call *tools.Call) (any, error) {
	return run(ctx, t.open, call, func(st *store.Store, a *getArgs) (any, error) {
		if v, ok := a.runVars(ctx).get(a.Name); ok {
			return VarResult{Name: a.Name, Scope: a.Scope, Value: v, Bytes: len(v), RunLocal: true}, nil
		}
		v, err := st.GetVar(ctx, a.Scope, a.session, a.Name)
		if err != nil {
			return nil, storeError(err, a.notSet())
		}
		return VarResult{Name: a.Name, Scope: a.Scope, Value: v, Bytes: len(v)}, nil
	})
}

// Run saves the variable.
func (t *varSet) Run(ctx context.Context, call *tools.Call) (any, error) {
	return run(ctx, t.open, call, func(st *store.Store, a *setArgs) (any, error) {
		if a.runVars(ctx).set(a.Name, a.Value) {
			return SetResult{Name: a.Name, Scope: a.Scope, Bytes: len(a.Value), Warning: a.warning, RunLocal: true}, nil
		}
		if err := st.SetVar(ctx, a.Scope, a.session, a.Name, a.Value); err != nil {
			var le *store.LimitError
			if errors.As(err, &le) {
				return nil, valueError(err)
			}
			return nil, storeError(err, "the run's session no longer exists, so it has no chat scope")
		}
		return SetResult{Name: a.Name, Scope: a.Scope, Bytes: len(a.Value), Warning: a.warning}, nil
	})
}

// Run deletes the variable.
func (t *varDelete) Run(ctx context.Context, call *tools.Call) (any, error) {
	return run(ctx, t.open, call, func(st *store.Store, a *deleteArgs) (any, error) {
		if a.runVars(ctx).remove(a.Name) {
			return DeleteResult{Deleted: true, Name: a.Name, Scope: a.Scope, RunLocal: true}, nil
		}
		if err := st.DeleteVar(ctx, a.Scope, a.session, a.Name); err != nil {
			return nil, storeError(err, a.notSet())
		}
		return DeleteResult{Deleted: true, Name: a.Name, Scope: a.Scope}, nil
	})
}

// Run lists the variables.
func (t *varList) Run(ctx context.Context, call *tools.Call) (any, error) {
	return run(ctx, t.open, call, func(st *store.Store, a *listArgs) (any, error) {
		vars, err := st.ListVars(ctx, a.Scope, a.session, a.Prefix)
		if err != nil {
			return nil, storeError(err, "")
		}
		res := ListResult{Scope: a.Scope, Variables: []ListEntry{}}
		for _, v := range vars {
			res.Variables = append(res.Variables, listEntry(v.Name, v.Value))
		}
		res.Variables = a.runVars(ctx).overlay(res.Variables, a.Prefix, func(name string, v json.RawMessage) ListEntry {
			e := listEntry(name, v)
			e.RunLocal = true
			return e
		})
		return res, nil
	})
}
