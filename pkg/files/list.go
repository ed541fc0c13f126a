package files

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
)

// Listing limits (SPEC §5).
const (
	DefaultListLimit = 100
	MaxListLimit     = 200
)

// ListOptions page a listing.
type ListOptions struct {
	// Limit is the most entries of the page, 1–200; 0 means 100.
	Limit int
	// Cursor continues a previous listing of the same location; "" starts
	// at the first name.
	Cursor string
}

// Page is one page of a listing.
type Page struct {
	Files []Entry `json:"files"`
	// NextCursor continues the listing; empty when no files remain.
	NextCursor string `json:"nextCursor,omitempty"`
}

// List returns loc's files sorted by name in byte order (so case-sensitive:
// "B" before "a"), at most opts.Limit of them, starting after the cursor's
// name. It reads the folder anew each time: files saved or deleted between
// pages show up or disappear, none is listed twice. Only plain files with
// valid names are listed. A location never written to is empty.
func (s *Store) List(ctx context.Context, loc Location, opts ListOptions) (Page, error) {
	if err := loc.check(); err != nil {
		return Page{}, err
	}
	limit := opts.Limit
	if limit == 0 {
		limit = DefaultListLimit
	}
	if limit < 1 || limit > MaxListLimit {
		return Page{}, invalid("limit", "an integer from 1 to 200",
			fmt.Sprintf("limit %d is out of range: use 1 to %d", opts.Limit, MaxListLimit))
	}
	db, err := s.database(ctx)
	if err != nil {
		return Page{}, err
	}
	if db != nil {
		if err := s.loadDBKey(ctx, db); err != nil {
			return Page{}, err
		}
	}
	after := ""
	if opts.Cursor != "" {
		a, err := s.readCursor(loc, opts.Cursor)
		if err != nil {
			return Page{}, err
		}
		after = a
	}
	if err := ctx.Err(); err != nil {
		return Page{}, err
	}
	if db != nil {
		return s.dbPage(ctx, db, loc, after, limit)
	}
	dir := s.dir(loc)
	names, err := readNames(dir, after)
	if err != nil {
		return Page{}, unavailable("listing the "+string(loc.Scope)+" scope", false, err)
	}
	slices.Sort(names)

	page := Page{Files: make([]Entry, 0, min(limit, len(names)))}
	i := 0
	for ; i < len(names) && len(page.Files) < limit; i++ {
		if err := ctx.Err(); err != nil {
			return Page{}, err
		}
		name := names[i]
		p := dir + string(os.PathSeparator) + name
		st, err := os.Lstat(p)
		if err != nil || !st.Mode().IsRegular() {
			continue // deleted since the folder was read
		}
		page.Files = append(page.Files, entryOf(loc, name, st, mimeOf(p, name)))
	}
	if i < len(names) && len(page.Files) > 0 {
		c, err := s.makeCursor(loc, page.Files[len(page.Files)-1].Name)
		if err != nil {
			return Page{}, err
		}
		page.NextCursor = c
	}
	return page, nil
}

// readNames returns the names of the plain files in dir that are valid
// names and sort after after, unsorted. A missing dir has none.
func readNames(dir, after string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(ents))
	for _, e := range ents {
		name := e.Name()
		// The type comes from the directory entry itself on most systems,
		// so skipping folders and links costs no stat.
		if !e.Type().IsRegular() || name <= after || CheckName(name) != nil {
			continue
		}
		names = append(names, name)
	}
	return names, nil
}
