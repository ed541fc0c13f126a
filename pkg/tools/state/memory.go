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

// check requires a field and cleans the items.
func (a *updateArgs) check(*tools.Env) error {
	if a.Enabled == nil && a.Memories == nil {
		e := tools.InvalidArgument("", "an object with enabled, memories or both", "object")
		e.Message = "give enabled, memories or both; {} changes nothing."
		return e
	}
	if a.Memories == nil {
		return nil
	}
	items, err := CleanMemoryItems(*a.Memories)
	if err != nil {
		return memoryToolError(err, "memories")
	}
	if err := CheckMemorySize(items); err != nil {
		return memoryToolError(err, "memories")
	}
	*a.Memories = items
	return nil
}

// Run replaces what was given and keeps the rest.
func (t *memoryUpdate) Run(ctx context.Context, call *tools.Call) (any, error) {
	return run(ctx, t.open, call, func(st *store.Store, a *updateArgs) (any, error) {
		m, err := st.UpdateMemory(ctx, func(m *store.Memory) error {
			if a.Enabled != nil {
				m.Enabled = *a.Enabled
			}
			if a.Memories != nil {
				m.Items = *a.Memories
			}
			return nil
		})
		if err != nil {
			return nil, storeError(err, "")
		}
		return m, nil
	})
}

type appendArgs struct {
	Items []string `json:"items"`
}

// check cleans the items.
func (a *appendArgs) check(*tools.Env) error {
	if len(a.Items) == 0 {
		return tools.InvalidArgument("items", "a non-empty array of strings", "array")
	}
	items, err := CleanMemoryItems(a.Items)
	if err != nil {
		return memoryToolError(err, "items")
	}
	a.Items = items
	return nil
}

// Run appends, checking in the same transaction that the memory stays
// within its limits, so concurrent writers cannot push it past them.
func (t *memoryAppend) Run(ctx context.Context, call *tools.Call) (any, error) {
	return run(ctx, t.open, call, func(st *store.Store, a *appendArgs) (any, error) {
		m, err := st.UpdateMemory(ctx, func(m *store.Memory) error {
			items := append(append([]string(nil), m.Items...), a.Items...)
			if err := CheckMemorySize(items); err != nil {
				return memoryToolError(err, "items")
			}
			m.Items = items
			return nil
		})
		if err != nil {
			var te *tools.Error
			if errors.As(err, &te) {
				return nil, te
			}
			return nil, storeError(err, "")
		}
		return m, nil
	})
}

// memoryToolError turns a *MemoryError into the envelope's terms: a bad
// item is invalid_arguments at field[i]; memory grown too large is
// limit_exceeded.
func memoryToolError(err error, field string) error {
	var me *MemoryError
	if !errors.As(err, &me) {
		return err
	}
	if me.Index < 0 {
		return &tools.Error{Code: tools.CodeLimitExceeded, Message: me.Msg,
			Details: map[string]any{"path": field, "limit": me.Limit, "unit": me.Unit}}
	}
	expected := "non-empty string"
	if me.TooLarge {
		expected = "string of at most " + strconv.Itoa(me.Limit) + " characters"
	}
	e := tools.InvalidArgument(tools.JoinPath(field, me.Index), expected, "string")
	e.Message = me.Msg + " (argument " + tools.JoinPath(field, me.Index) + ")."
	return e
}
