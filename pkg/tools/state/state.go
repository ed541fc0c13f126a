// Package state holds the tools that keep state between turns and runs in
// tavo's store (SPEC §5): long-term memory (tavo_memory_current,
// tavo_memory_update, tavo_memory_append, and seed 004's item tools
// tavo_memory_save, _edit, _delete, _list and _search), variables (tavo_var_get,
// tavo_var_set, tavo_var_delete, tavo_var_list) and the session's todo list
// (tavo_todo_write). They are thin adapters: decode the arguments, call the
// store, put the answer or the store's refusal in the envelope. The rules
// they share with `tavo memory` and `tavo var` (memory caps, variable names,
// value sizes) live in pkg/store, which enforces them as it writes.
package state

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// The model-facing names of the tools.
const (
	MemoryCurrentName = "tavo_memory_current"
	MemoryUpdateName  = "tavo_memory_update"
	MemoryAppendName  = "tavo_memory_append"
	MemorySaveName    = "tavo_memory_save"
	MemoryEditName    = "tavo_memory_edit"
	MemoryDeleteName  = "tavo_memory_delete"
	MemoryListName    = "tavo_memory_list"
	MemorySearchName  = "tavo_memory_search"
	VarGetName        = "tavo_var_get"
	VarSetName        = "tavo_var_set"
	VarDeleteName     = "tavo_var_delete"
	VarListName       = "tavo_var_list"
	TodoWriteName     = "tavo_todo_write"
)

// Opener opens the store the tools work on. It is called on each call, so
// a catalog that is built but never used costs no database open; the caller
// caches the store.
type Opener func(ctx context.Context) (*store.Store, error)

// All returns the thirteen state tools over the store open returns. None is
// resident (the model finds them through tavo_tool_search) and none asks
// for confirmation.
func All(open func(ctx context.Context) (*store.Store, error)) []tools.Tool {
	o := Opener(open)
	return []tools.Tool{
		&memoryCurrent{open: o}, &memoryUpdate{open: o}, &memoryAppend{open: o},
		&memorySave{open: o}, &memoryEdit{open: o}, &memoryDelete{open: o}, &memoryList{open: o}, &memorySearch{open: o},
		&varGet{open: o}, &varSet{open: o}, &varDelete{open: o}, &varList{open: o},
		&todoWrite{open: o},
	}
}

// spec builds the spec shared by the state tools.
func spec(name, description, schema string) tools.Spec {
	return tools.Spec{
		Name:        name,
		ID:          name,
		Description: description,
		Parameters:  json.RawMessage(schema),
		Source:      tools.SourceBuiltin,
	}
}

// store opens the store; a failure reaches the model as a generic
// internal_error, since the cause names paths on this machine.
func (o Opener) store(ctx context.Context) (*store.Store, error) {
	if o == nil {
		return nil, tools.Errorf(tools.CodeInternalError, "tavo's state store is not available in this run")
	}
	st, err := o(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, tools.Errorf(tools.CodeInternalError, "tavo's state store could not be opened; the call did nothing")
	}
	return st, nil
}

// storeError maps the store's sentinel errors onto the envelope's codes with
// a message of the tool's own (the store's messages may name the data
// directory). Anything else stays a plain error, which the executor reports
// as a generic internal_error.
func storeError(err error, notFound string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	case errors.Is(err, store.ErrNotFound) && notFound != "":
		return tools.Errorf(tools.CodeResourceNotFound, notFound)
	case errors.Is(err, store.ErrInvalid):
		return tools.Errorf(tools.CodeInvalidArguments, "the store refused the arguments as invalid")
	case errors.Is(err, store.ErrDiskFull):
		return tools.Errorf(tools.CodeInternalError, "the session store cannot be written (disk full); the call did nothing")
	case errors.Is(err, store.ErrReadOnly):
		return tools.Errorf(tools.CodeInternalError, "the session store cannot be written (its data dir is read-only); the call did nothing")
	}
	return err
}

// checker is implemented by arguments with rules a schema cannot express;
// they are checked before the store is opened, so a bad call fails the same
// way whatever state the store is in.
type checker interface {
	check(env *tools.Env) error
}

// run is the shape of every state tool's Run: decode, check, open the
// store, act.
func run[A any](ctx context.Context, o Opener, call *tools.Call, act func(st *store.Store, a *A) (any, error)) (any, error) {
	var a A
	if err := tools.DecodeArgs(call.Args, &a); err != nil {
		return nil, err
	}
	if c, ok := any(&a).(checker); ok {
		if err := c.check(call.Env); err != nil {
			return nil, err
		}
	}
	st, err := o.store(ctx)
	if err != nil {
		return nil, err
	}
	return act(st, &a)
}
