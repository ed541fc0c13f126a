package state

import (
	"context"
	"errors"
	"strconv"

	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/tools"
)

const memoryCurrentDescription = "Read the long-term memory: the notes kept across conversations and whether " +
	"they are injected into the system prompt (enabled). Read it before rewriting the notes with " +
	`tavo_memory_update. Returns {"enabled":…,"memories":[…]}.`

const memoryUpdateDescription = "Rewrite the long-term memory or switch its injection on or off. memories is " +
	"the complete new list of notes and replaces every existing one ([] removes them all); enabled true adds " +
	"the notes to the system prompt, false stops that but keeps the notes and these tools. Give either or both; " +
	"to edit, pass back what tavo_memory_current returned with your changes. To add notes without rewriting the " +
	"others use tavo_memory_append. At most 200 notes of 2000 characters, 32 KiB in all. " +
	`Returns the new {"enabled":…,"memories":[…]}.`

const memoryAppendDescription = "Add notes to the long-term memory, after the existing ones, leaving those " +
	"untouched. Use it for durable facts or preferences worth keeping across conversations, one self-contained " +
	"note per item; keep scratch data of the current task in variables or files instead. It never switches " +
	"injection on: while enabled is false the notes are stored but not added to the system prompt. " +
	`Returns the new {"enabled":…,"memories":[…]}.`

// memoryCurrent is tavo_memory_current.
type memoryCurrent struct{ open Opener }

// memoryUpdate is tavo_memory_update.
type memoryUpdate struct{ open Opener }

// memoryAppend is tavo_memory_append.
type memoryAppend struct{ open Opener }

// Spec describes tavo_memory_current.
func (*memoryCurrent) Spec() tools.Spec {
	return spec(MemoryCurrentName, memoryCurrentDescription, emptySchema)
}

// Spec describes tavo_memory_update.
func (*memoryUpdate) Spec() tools.Spec {
	return spec(MemoryUpdateName, memoryUpdateDescription, memoryUpdateSchema)
}

// Spec describes tavo_memory_append.
func (*memoryAppend) Spec() tools.Spec {
	return spec(MemoryAppendName, memoryAppendDescription, memoryAppendSchema)
}

type noArgs struct{}

// Run returns the memory.
func (t *memoryCurrent) Run(ctx context.Context, call *tools.Call) (any, error) {
	return run(ctx, t.open, call, func(st *store.Store, _ *noArgs) (any, error) {
		m, err := st.Memory(ctx)
		return m, storeError(err, "")
	})
}

type updateArgs struct {
	Enabled  *bool     `json:"enabled"`
	Memories *[]string `json:"memories"`
}

// check requires a field and checks each note, so a bad one is refused
// even when the store cannot be opened. The store checks again, with the
// limits, as it writes.
func (a *updateArgs) check(*tools.Env) error {
	if a.Enabled == nil && a.Memories == nil {
		e := tools.InvalidArgument("", "an object with enabled, memories or both", "object")
		e.Message = "give enabled, memories or both; {} changes nothing."
		return e
	}
	if a.Memories != nil {
		if _, err := store.CleanMemoryItems(*a.Memories); err != nil {
			return memoryToolError(err, "memories")
		}
	}
	return nil
}

// Run replaces what was given and keeps the rest.
func (t *memoryUpdate) Run(ctx context.Context, call *tools.Call) (any, error) {
	return run(ctx, t.open, call, func(st *store.Store, a *updateArgs) (any, error) {
		m, err := st.SetMemory(ctx, store.MemoryUpdate{Enabled: a.Enabled, Items: a.Memories})
		if err != nil {
			return nil, memoryToolError(err, "memories")
		}
		return m, nil
	})
}

type appendArgs struct {
	Items []string `json:"items"`
}

// check requires notes and checks each, as updateArgs.check does.
func (a *appendArgs) check(*tools.Env) error {
	if len(a.Items) == 0 {
		return tools.InvalidArgument("items", "a non-empty array of strings", "array")
	}
	if _, err := store.CleanMemoryItems(a.Items); err != nil {
		return memoryToolError(err, "items")
	}
	return nil
}

// Run appends; the store checks the limits in the same transaction, so
// concurrent writers cannot push memory past them.
func (t *memoryAppend) Run(ctx context.Context, call *tools.Call) (any, error) {
	return run(ctx, t.open, call, func(st *store.Store, a *appendArgs) (any, error) {
		m, err := st.AppendMemory(ctx, a.Items)
		if err != nil {
			return nil, memoryToolError(err, "items")
		}
		return m, nil
	})
}

// memoryToolError turns the store's refusals into the envelope's terms: a
// bad note is invalid_arguments at field[i]; memory grown too large is
// limit_exceeded. Other errors go through storeError.
func memoryToolError(err error, field string) error {
	var ie *store.ItemError
	var le *store.LimitError
	switch {
	case errors.As(err, &le):
		return &tools.Error{Code: tools.CodeLimitExceeded, Message: le.Error(),
			Details: map[string]any{"path": field, "limit": le.Limit, "unit": le.Unit}}
	case errors.As(err, &ie):
		expected := "non-empty string"
		if ie.Limit > 0 {
			expected = "string of at most " + strconv.Itoa(ie.Limit) + " characters"
		}
		path := tools.JoinPath(field, ie.Index)
		e := tools.InvalidArgument(path, expected, "string")
		e.Message = ie.Error() + " (argument " + path + ")."
		return e
	}
	return storeError(err, "")
}
