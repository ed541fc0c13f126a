package state

import (
	"context"
	"errors"
	"strconv"

	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// Seed 004's memory tools (SPEC §16): the same notes as tavo_memory_current
// shows, one at a time and by id.

const memorySaveDescription = "Save one note to the long-term memory, after the existing ones: a durable fact " +
	"or preference worth keeping across conversations, self-contained. It does not switch injection into the " +
	`system prompt on. Returns {"id":…}; use the id to edit or delete the note.`

const memoryEditDescription = "Replace the text of one long-term memory note, keeping its id and its place " +
	"in the order; the limits of tavo_memory_save apply to the new text. " +
	`Find the id with tavo_memory_search or tavo_memory_list. Returns {"id":…}.`

const memoryDeleteDescription = "Delete one long-term memory note by id, for a fact that is no longer true or " +
	"wanted; the other notes keep their ids. An unknown id is resource_not_found. " +
	`Returns {"id":…,"deleted":true}.`

const memoryListDescription = "List the long-term memory notes in order, a page at a time: " +
	`{"items":[{"id","content","created_at","updated_at"}],"next_cursor"?}; pass next_cursor back for the next page.`

const memorySearchDescription = "Search the long-term memory notes by words (full-text, ranked: notes matching more " +
	"and rarer words first; a word also matches longer words it starts; case and accents ignored). " +
	`Returns {"results":[{"id","content","score",…}]}, best first, [] when nothing matches.`

// memorySave is tavo_memory_save.
type memorySave struct{ open Opener }

// memoryEdit is tavo_memory_edit.
type memoryEdit struct{ open Opener }

// memoryDelete is tavo_memory_delete.
type memoryDelete struct{ open Opener }

// memoryList is tavo_memory_list.
type memoryList struct{ open Opener }

// memorySearch is tavo_memory_search.
type memorySearch struct{ open Opener }

// Spec describes tavo_memory_save.
func (*memorySave) Spec() tools.Spec {
	return spec(MemorySaveName, memorySaveDescription, memorySaveSchema)
}

// Spec describes tavo_memory_edit.
func (*memoryEdit) Spec() tools.Spec {
	return spec(MemoryEditName, memoryEditDescription, memoryEditSchema)
}

// Spec describes tavo_memory_delete.
func (*memoryDelete) Spec() tools.Spec {
	return spec(MemoryDeleteName, memoryDeleteDescription, memoryDeleteSchema)
}

// Spec describes tavo_memory_list.
func (*memoryList) Spec() tools.Spec {
	return spec(MemoryListName, memoryListDescription, memoryListSchema)
}

// Spec describes tavo_memory_search.
func (*memorySearch) Spec() tools.Spec {
	return spec(MemorySearchName, memorySearchDescription, memorySearchSchema)
}

type memSaveArgs struct {
	Content string `json:"content"`
}

// check refuses a blank note before the store is opened.
func (a *memSaveArgs) check(*tools.Env) error {
	if _, err := store.CleanMemoryItems([]string{a.Content}); err != nil {
		return itemToolError(err, "content")
	}
	return nil
}

type idResult struct {
	ID      string `json:"id"`
	Deleted bool   `json:"deleted,omitempty"`
}

// Run saves the note; the store checks the limits as it writes.
func (t *memorySave) Run(ctx context.Context, call *tools.Call) (any, error) {
	return run(ctx, t.open, call, func(st *store.Store, a *memSaveArgs) (any, error) {
		it, err := st.SaveMemoryItem(ctx, a.Content)
		if err != nil {
			return nil, itemToolError(err, "content")
		}
		return idResult{ID: it.ID}, nil
	})
}

type memEditArgs struct {
	ID      string `json:"id"`
	Content string `json:"content"`
}

// check refuses a blank note before the store is opened.
func (a *memEditArgs) check(*tools.Env) error {
	if _, err := store.CleanMemoryItems([]string{a.Content}); err != nil {
		return itemToolError(err, "content")
	}
	return nil
}

// Run replaces the note's text.
func (t *memoryEdit) Run(ctx context.Context, call *tools.Call) (any, error) {
	return run(ctx, t.open, call, func(st *store.Store, a *memEditArgs) (any, error) {
		if _, err := st.EditMemoryItem(ctx, a.ID, a.Content); err != nil {
			return nil, itemToolError(err, "content", a.ID)
		}
		return idResult{ID: a.ID}, nil
	})
}

type memDeleteArgs struct {
	ID string `json:"id"`
}

// Run deletes the note.
func (t *memoryDelete) Run(ctx context.Context, call *tools.Call) (any, error) {
	return run(ctx, t.open, call, func(st *store.Store, a *memDeleteArgs) (any, error) {
		if err := st.DeleteMemoryItem(ctx, a.ID); err != nil {
			return nil, itemToolError(err, "id", a.ID)
		}
		return idResult{ID: a.ID, Deleted: true}, nil
	})
}

type memListArgs struct {
	Limit  int    `json:"limit"`
	Cursor string `json:"cursor"`
}

type memListResult struct {
	Items      []store.MemoryItem `json:"items"`
	NextCursor string             `json:"next_cursor,omitempty"`
}

// Run lists a page.
func (t *memoryList) Run(ctx context.Context, call *tools.Call) (any, error) {
	return run(ctx, t.open, call, func(st *store.Store, a *memListArgs) (any, error) {
		items, next, err := st.ListMemoryItems(ctx, a.Limit, a.Cursor)
		if errors.Is(err, store.ErrInvalid) {
			return nil, tools.InvalidArgument("cursor", "a next_cursor that tavo_memory_list returned", "string")
		}
		if err != nil {
			return nil, storeError(err, "")
		}
		return memListResult{Items: items, NextCursor: next}, nil
	})
}

type memSearchArgs struct {
	Query string `json:"query"`
	Limit int    `json:"limit"`
}

type memSearchResult struct {
	Results []store.MemoryHit `json:"results"`
}

// Run searches.
func (t *memorySearch) Run(ctx context.Context, call *tools.Call) (any, error) {
	return run(ctx, t.open, call, func(st *store.Store, a *memSearchArgs) (any, error) {
		hits, err := st.SearchMemory(ctx, a.Query, a.Limit)
		if errors.Is(err, store.ErrInvalid) {
			e := tools.InvalidArgument("query", "text with at least one word", "string")
			e.Message = "the query has no word to search for: give one or more words (letters or digits)."
			return nil, e
		}
		if err != nil {
			return nil, storeError(err, "")
		}
		return memSearchResult{Results: hits}, nil
	})
}

// itemToolError is memoryToolError for one note: a bad note is
// invalid_arguments at field, a full memory limit_exceeded, an unknown id
// resource_not_found naming it.
func itemToolError(err error, field string, id ...string) error {
	var ie *store.ItemError
	if errors.As(err, &ie) {
		e := tools.InvalidArgument(field, "non-empty string", "string")
		if ie.Limit > 0 {
			e = tools.InvalidArgument(field, "string of at most "+strconv.Itoa(ie.Limit)+" characters", "string")
		}
		e.Message = ie.Error() + " (argument " + field + ")."
		return e
	}
	if len(id) > 0 && errors.Is(err, store.ErrNotFound) {
		return storeError(err, "no memory note has id "+id[0]+"; find ids with tavo_memory_list or tavo_memory_search")
	}
	return memoryToolError(err, field)
}
