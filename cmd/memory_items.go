package cmd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/store"
)

// MemoryLsOptions are the inputs of `tavo memory ls`.
type MemoryLsOptions struct {
	Factory *Factory
	Ctx     context.Context
	Limit   int
	Cursor  string
}

// NewCmdMemoryLs builds `tavo memory ls`; runF, when not nil, runs instead
// of memoryLsRun (for tests).
func NewCmdMemoryLs(f *Factory, runF func(*MemoryLsOptions) error) *cobra.Command {
	o := &MemoryLsOptions{Factory: f}
	c := &cobra.Command{
		Use:   "ls",
		Short: "List the notes with their ids, in order",
		Long: `List the notes with their ids, in memory's order, a page at a time: one note
per line as "ID<TAB>TEXT" (a note's further lines indented by a tab). When
more remain, "more: --cursor C" goes to stderr. -o json prints
{items:[{id, content, created_at, updated_at}], next_cursor}.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Ctx = cmd.Context()
			return runOr(runF, memoryLsRun, o)
		},
		Example: `  tavo memory ls
  tavo memory ls -o json --jq '.items[].id'`,
	}
	c.Flags().IntVarP(&o.Limit, "limit", "n", store.DefaultMemoryPage, fmt.Sprintf("notes per page (1-%d)", store.MaxMemoryPage))
	c.Flags().StringVar(&o.Cursor, "cursor", "", "continue a listing from its next_cursor")
	return c
}

func memoryLsRun(o *MemoryLsOptions) error {
	if err := checkLimit(o.Limit, store.MaxMemoryPage); err != nil {
		return err
	}
	out, st, err := storeOutputContext(o.Ctx, o.Factory)
	if err != nil {
		return err
	}
	defer st.Close()
	items, next, err := st.ListMemoryItems(o.Ctx, o.Limit, o.Cursor)
	if err != nil {
		return storeError(err)
	}
	if out.Structured() {
		return writePage(o.Factory, out, "items", items, next)
	}
	if err := writeMemoryItems(o.Factory.IO.Out, items); err != nil {
		return err
	}
	pageHint(o.Factory, next)
	return nil
}

// MemorySearchOptions are the inputs of `tavo memory search`.
type MemorySearchOptions struct {
	Factory *Factory
	Ctx     context.Context
	Query   string
	Limit   int
}

// NewCmdMemorySearch builds `tavo memory search`; runF, when not nil, runs
// instead of memorySearchRun (for tests).
func NewCmdMemorySearch(f *Factory, runF func(*MemorySearchOptions) error) *cobra.Command {
	o := &MemorySearchOptions{Factory: f}
	c := &cobra.Command{
		Use:   "search WORDS...",
		Short: "Find notes by words, best match first",
		Long: `Find notes by words, as the model's tavo_memory_search does: full-text, ranked
(notes matching more and rarer words first), a word also matching longer words
it starts, case and accents ignored. Prints "ID<TAB>TEXT" lines, best first;
no match prints nothing and exits 0. -o json prints {results:[{id, content,
score, created_at, updated_at}]}. A query without a letter or digit is a usage
error (exit 2).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Ctx, o.Query = cmd.Context(), strings.Join(args, " ")
			return runOr(runF, memorySearchRun, o)
		},
		Example: `  tavo memory search staging host
  tavo memory search deploy -o json --jq '.results[0].id'`,
	}
	c.Flags().IntVarP(&o.Limit, "limit", "n", store.DefaultMemoryPage, fmt.Sprintf("most notes to print (1-%d)", store.MaxMemoryPage))
	return c
}

func memorySearchRun(o *MemorySearchOptions) error {
	if err := checkLimit(o.Limit, store.MaxMemoryPage); err != nil {
		return err
	}
	out, st, err := storeOutputContext(o.Ctx, o.Factory)
	if err != nil {
		return err
	}
	defer st.Close()
	hits, err := st.SearchMemory(o.Ctx, o.Query, o.Limit)
	if err != nil {
		return storeError(err)
	}
	if out.Structured() {
		return out.WriteValue(struct {
			Results []store.MemoryHit `json:"results"`
		}{hits})
	}
	items := make([]store.MemoryItem, len(hits))
	for i, h := range hits {
		items[i] = h.MemoryItem
	}
	return writeMemoryItems(o.Factory.IO.Out, items)
}

// MemoryRmOptions are the inputs of `tavo memory rm`.
type MemoryRmOptions struct {
	Factory *Factory
	Ctx     context.Context
	IDs     []string
}

// NewCmdMemoryRm builds `tavo memory rm`; runF, when not nil, runs instead
// of memoryRmRun (for tests).
func NewCmdMemoryRm(f *Factory, runF func(*MemoryRmOptions) error) *cobra.Command {
	o := &MemoryRmOptions{Factory: f}
	return &cobra.Command{
		Use:   "rm ID...",
		Short: "Delete notes by id",
		Long: `Delete the notes with the ids given (as "tavo memory ls" or "search" shows
them, like m12); the other notes keep their ids and order. Every id is
checked first: a malformed id is a usage error (exit 2) and deletes nothing.
An id with no note is reported and the others are still deleted, then the
command exits 1.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Ctx, o.IDs = cmd.Context(), args
			return runOr(runF, memoryRmRun, o)
		},
		Example: `  tavo memory rm m12
  tavo memory search staging -o json --jq '.results[].id' | xargs tavo memory rm`,
	}
}

func memoryRmRun(o *MemoryRmOptions) error {
	for _, id := range o.IDs {
		if !store.ValidMemoryID(id) {
			return usageError(fmt.Errorf("%q is not a memory note id (ids look like m12; see tavo memory ls)", id))
		}
	}
	st, err := openStore(o.Ctx, o.Factory)
	if err != nil {
		return err
	}
	defer st.Close()
	var missing []string
	for _, id := range o.IDs {
		err := st.DeleteMemoryItem(o.Ctx, id)
		switch {
		case errors.Is(err, store.ErrNotFound):
			missing = append(missing, id)
		case err != nil:
			return failedError(err)
		}
	}
	if len(missing) > 0 {
		return failedError(fmt.Errorf("no memory note has id %s (see tavo memory ls)", strings.Join(missing, ", ")))
	}
	return nil
}

// writeMemoryItems prints notes as "ID<TAB>TEXT" lines, a note's further
// lines indented by a tab so every line that starts without one starts a
// note.
func writeMemoryItems(w io.Writer, items []store.MemoryItem) error {
	bw := bufio.NewWriter(w)
	for _, it := range items {
		fmt.Fprintf(bw, "%s\t%s\n", it.ID, strings.ReplaceAll(it.Content, "\n", "\n\t"))
	}
	return bw.Flush()
}
