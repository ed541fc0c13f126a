package fetch

import (
	"context"
	"time"
)

// Snapshot is a fetched document kept so its pages can be read later
// without downloading it again.
type Snapshot struct {
	// ID names the snapshot inside its store.
	ID string
	// Doc is the document as fetched.
	Doc *Document
	// Expires is when the snapshot goes; zero means when its store goes.
	Expires time.Time

	id [idBytes]byte
}

// Store keeps snapshots and mints the cursors that point into them. A
// cursor works only with the store that minted it.
type Store interface {
	// Put keeps doc and returns its snapshot.
	Put(ctx context.Context, doc *Document) (*Snapshot, error)
	// Get returns the snapshot and the offset a cursor points at. An
	// altered or foreign cursor is invalid_arguments; an expired or evicted
	// one is resource_not_found.
	Get(ctx context.Context, cursor string) (*Snapshot, int, error)
	// Cursor mints the cursor for the page of s that starts at offset.
	Cursor(s *Snapshot, offset int) string
}

// Result is one answer of `tavo fetch` and tavo_web_fetch: a whole document
// or one page of it.
type Result struct {
	URL      string `json:"url"`
	FinalURL string `json:"final_url"`
	Status   int    `json:"status"`
	MIME     string `json:"mime"`
	Title    string `json:"title"`
	Markdown string `json:"markdown"`
	// NextCursor reads the next page; empty on the last page.
	NextCursor string `json:"next_cursor"`
	// Truncated is true when Markdown is not the rest of the document, that
	// is when NextCursor is set.
	Truncated bool      `json:"truncated"`
	Warnings  []Warning `json:"warnings"`
}

// Result returns the whole document as one Result.
func (d *Document) Result() *Result {
	return d.result(d.Markdown)
}

func (d *Document) result(md string) *Result {
	ws := d.Warnings
	if ws == nil {
		ws = []Warning{}
	}
	return &Result{
		URL:      d.URL,
		FinalURL: d.FinalURL,
		Status:   d.Status,
		MIME:     d.MIME,
		Title:    d.Title,
		Markdown: md,
		Warnings: ws,
	}
}

// Pager serves documents page by page through a Store.
type Pager struct {
	Store Store
	// Size is the page size; zero means PageSize.
	Size int
	// Fits, when set, says whether a page fits the caller's budget (the
	// tool's 64 KiB per result, say); a page that does not is cut smaller
	// until it does or reaches 1 KiB.
	Fits func(*Result) bool
}

func (p Pager) size() int {
	if p.Size > 0 {
		return p.Size
	}
	return PageSize
}

// First returns the first page of doc. A document that fits in one page is
// returned whole and not stored; a longer one is stored and the result
// carries the cursor of the next page.
func (p Pager) First(ctx context.Context, doc *Document) (*Result, error) {
	if len(doc.Markdown) <= p.size() {
		if r := doc.Result(); p.Fits == nil || p.Fits(r) {
			return r, nil
		}
	}
	s, err := p.Store.Put(ctx, doc)
	if err != nil {
		return nil, err
	}
	return p.page(s, 0), nil
}

// Next returns the page a cursor points at. The cursor alone decides: no
// URL is fetched, and a cursor that is invalid or expired fails.
func (p Pager) Next(ctx context.Context, cursor string) (*Result, error) {
	s, off, err := p.Store.Get(ctx, cursor)
	if err != nil {
		return nil, err
	}
	return p.page(s, off), nil
}

func (p Pager) page(s *Snapshot, offset int) *Result {
	md := s.Doc.Markdown
	for size := p.size(); ; size /= 2 {
		text, next := PageAt(md, offset, size)
		r := s.Doc.result(text)
		if next < len(md) {
			r.NextCursor = p.Store.Cursor(s, next)
			r.Truncated = true
		}
		if p.Fits == nil || size <= minPageSize || p.Fits(r) {
			return r
		}
	}
}
