package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Long-term memory (SPEC §5 and §16): notes kept across sessions, each an
// item with an id in memory_items, in the order pos gives, indexed for
// full-text search in memory_fts. Whether the notes are injected into the
// system prompt is the "enabled" flag of kv's "memory" document. Seed 000's
// view (Memory: enabled and a list of strings) and seed 004's items are two
// views of the same rows.

// Memory is the long-term memory as seed 000's tools see it. Enabled says
// whether it is injected into the system prompt; the items are kept either
// way.
type Memory struct {
	Enabled bool     `json:"enabled"`
	Items   []string `json:"memories"`
}

// MemoryItem is one note with its id.
type MemoryItem struct {
	// ID names the note: "m" and a number, never reused.
	ID        string    `json:"id"`
	Content   string    `json:"content"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`

	pos int64 // its place in memory's order, for cursors
}

// MemoryHit is a note found by SearchMemory; a higher Score is a better
// match (SQLite FTS5's bm25, negated).
type MemoryHit struct {
	MemoryItem
	Score float64 `json:"score"`
}

// Listing limits of ListMemoryItems and SearchMemory.
const (
	DefaultMemoryPage = 50
	MaxMemoryPage     = MaxMemoryItems
)

const memoryKey = "memory"

// querier is what *sql.DB and *sql.Tx share.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Memory returns the memory; nothing stored yet is disabled and empty.
func (s *Store) Memory(ctx context.Context) (Memory, error) {
	var m Memory
	err := s.read(ctx, "reading memory", func() error {
		var err error
		m, err = readMemory(ctx, s.db)
		return err
	})
	return m, err
}

// AppendMemory adds items after the existing notes and returns the new
// memory; it never changes Enabled. The items are trimmed and checked
// (CleanMemoryItems: an *ItemError) and the notes they would make are
// checked against the limits (CheckMemorySize: a *LimitError) inside the
// write transaction, so writers appending at the same time can never take
// memory past them together.
func (s *Store) AppendMemory(ctx context.Context, items []string) (Memory, error) {
	items, err := CleanMemoryItems(items)
	if err != nil {
		return Memory{}, fmt.Errorf("store: appending to memory: %w", err)
	}
	return s.changeMemory(ctx, "appending to memory", func(tx *sql.Tx, m *Memory) error {
		all := append(append(make([]string, 0, len(m.Items)+len(items)), m.Items...), items...)
		if err := CheckMemorySize(all); err != nil {
			return err
		}
		for _, it := range items {
			if _, err := s.insertMemoryItem(ctx, tx, it); err != nil {
				return err
			}
		}
		m.Items = all
		return nil
	})
}

// MemoryUpdate is what SetMemory changes; a nil field is kept as stored.
type MemoryUpdate struct {
	// Enabled switches injection into the system prompt on or off.
	Enabled *bool
	// Items replaces every note (an empty list removes them all).
	Items *[]string
}

// SetMemory applies u in one write transaction and returns the new memory.
// New items are trimmed and checked like AppendMemory's, and must fit the
// limits on their own (*ItemError, *LimitError); switching Enabled alone
// checks nothing, so it works whatever is stored. A note that is kept
// (the same text as before) keeps its id.
func (s *Store) SetMemory(ctx context.Context, u MemoryUpdate) (Memory, error) {
	var items []string
	if u.Items != nil {
		var err error
		if items, err = CleanMemoryItems(*u.Items); err != nil {
			return Memory{}, fmt.Errorf("store: setting memory: %w", err)
		}
		if err := CheckMemorySize(items); err != nil {
			return Memory{}, fmt.Errorf("store: setting memory: %w", err)
		}
	}
	return s.changeMemory(ctx, "setting memory", func(tx *sql.Tx, m *Memory) error {
		if u.Enabled != nil && *u.Enabled != m.Enabled {
			m.Enabled = *u.Enabled
			if err := s.putEnabled(ctx, tx, m.Enabled); err != nil {
				return err
			}
		}
		if u.Items != nil {
			if err := s.replaceMemoryItems(ctx, tx, items); err != nil {
				return err
			}
			m.Items = items
		}
		return nil
	})
}

// replaceMemoryItems makes the notes exactly items, in order, reusing the
// row (and id) of each note whose text is unchanged.
func (s *Store) replaceMemoryItems(ctx context.Context, tx *sql.Tx, items []string) error {
	old, err := memoryItems(ctx, tx, "", nil)
	if err != nil {
		return err
	}
	free := map[string][]int64{}
	for _, it := range old {
		n, _ := parseMemoryID(it.ID)
		free[it.Content] = append(free[it.Content], n)
	}
	keep := map[int64]bool{}
	now := toNS(s.now())
	for i, it := range items {
		if ids := free[it]; len(ids) > 0 {
			free[it] = ids[1:]
			keep[ids[0]] = true
			if _, err := tx.ExecContext(ctx, `UPDATE memory_items SET pos = ? WHERE id = ?`, i+1, ids[0]); err != nil {
				return err
			}
			continue
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO memory_items (pos, content, created_at, updated_at) VALUES (?, ?, ?, ?)`,
			i+1, it, now, now); err != nil {
			return err
		}
	}
	for _, it := range old {
		if n, _ := parseMemoryID(it.ID); !keep[n] {
			if _, err := tx.ExecContext(ctx, `DELETE FROM memory_items WHERE id = ?`, n); err != nil {
				return err
			}
		}
	}
	return nil
}

// changeMemory reads the memory and lets change write to it, in one write
// transaction, so a concurrent append or toggle is never lost and a limit
// checked in change holds. An error from change aborts the write.
func (s *Store) changeMemory(ctx context.Context, op string, change func(*sql.Tx, *Memory) error) (Memory, error) {
	var m Memory
	err := s.write(ctx, op, func(tx *sql.Tx) error {
		var err error
		if m, err = readMemory(ctx, tx); err != nil {
			return err
		}
		return change(tx, &m)
	})
	if err != nil {
		return Memory{}, err
	}
	return m, nil
}

// SaveMemoryItem adds one note after the others and returns it. The note is
// trimmed and checked (*ItemError) and the limits (*LimitError) are checked
// in the write transaction.
func (s *Store) SaveMemoryItem(ctx context.Context, content string) (MemoryItem, error) {
	clean, err := CleanMemoryItems([]string{content})
	if err != nil {
		return MemoryItem{}, fmt.Errorf("store: saving a memory item: %w", err)
	}
	var it MemoryItem
	err = s.write(ctx, "saving a memory item", func(tx *sql.Tx) error {
		count, total, err := memoryTotals(ctx, tx)
		if err != nil {
			return err
		}
		if err := checkMemoryTotals(count+1, total+len(clean[0])); err != nil {
			return err
		}
		it, err = s.insertMemoryItem(ctx, tx, clean[0])
		return err
	})
	return it, err
}

// EditMemoryItem replaces the text of note id, keeping its place, and
// returns it: ErrNotFound for an unknown id, ErrInvalid for a malformed
// one, *ItemError and *LimitError as SaveMemoryItem.
func (s *Store) EditMemoryItem(ctx context.Context, id, content string) (MemoryItem, error) {
	n, err := parseMemoryID(id)
	if err != nil {
		return MemoryItem{}, fmt.Errorf("store: editing a memory item: %w", err)
	}
	clean, err := CleanMemoryItems([]string{content})
	if err != nil {
		return MemoryItem{}, fmt.Errorf("store: editing memory item %s: %w", id, err)
	}
	var it MemoryItem
	err = s.write(ctx, "editing memory item "+id, func(tx *sql.Tx) error {
		var old string
		var created int64
		err := tx.QueryRowContext(ctx, `SELECT content, created_at FROM memory_items WHERE id = ?`, n).Scan(&old, &created)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("memory item %s: %w", id, ErrNotFound)
		}
		if err != nil {
			return err
		}
		count, total, err := memoryTotals(ctx, tx)
		if err != nil {
			return err
		}
		if err := checkMemoryTotals(count, total-len(old)+len(clean[0])); err != nil {
			return err
		}
		now := s.now()
		if _, err := tx.ExecContext(ctx, `UPDATE memory_items SET content = ?, updated_at = ? WHERE id = ?`, clean[0], toNS(now), n); err != nil {
			return err
		}
		it = MemoryItem{ID: id, Content: clean[0], CreatedAt: fromNS(created), UpdatedAt: fromNS(toNS(now))}
		return nil
	})
	return it, err
}

// DeleteMemoryItem removes note id: ErrNotFound when there is none.
func (s *Store) DeleteMemoryItem(ctx context.Context, id string) error {
	n, err := parseMemoryID(id)
	if err != nil {
		return fmt.Errorf("store: deleting a memory item: %w", err)
	}
	return s.write(ctx, "deleting memory item "+id, func(tx *sql.Tx) error {
		return mustAffect(tx.ExecContext(ctx, `DELETE FROM memory_items WHERE id = ?`, n))(
			fmt.Errorf("memory item %s: %w", id, ErrNotFound))
	})
}

// ListMemoryItems returns a page of notes in memory's order: limit 1 to
// MaxMemoryPage (0 means DefaultMemoryPage), from cursor ("" for the first
// page); next is "" on the last page.
func (s *Store) ListMemoryItems(ctx context.Context, limit int, cursor string) (items []MemoryItem, next string, err error) {
	limit, err = pageLimit(limit, DefaultMemoryPage, MaxMemoryPage)
	if err != nil {
		return nil, "", fmt.Errorf("store: listing memory: %w", err)
	}
	pos, after, err := decodeCursor("mem", cursor)
	if err != nil {
		return nil, "", fmt.Errorf("store: listing memory: %w", err)
	}
	var afterID int64
	if cursor != "" {
		if afterID, err = strconv.ParseInt(after, 10, 64); err != nil {
			return nil, "", fmt.Errorf("store: listing memory: cursor %q is not one this listing gave out: %w", cursor, ErrInvalid)
		}
	}
	err = s.read(ctx, "listing memory", func() error {
		var err error
		items, err = memoryItems(ctx, s.db, `WHERE (pos, id) > (?, ?) ORDER BY pos, id LIMIT ?`, []any{pos, afterID, limit + 1})
		return err
	})
	if err != nil {
		return nil, "", err
	}
	items, next = cutPage(items, limit, func(last MemoryItem) string {
		n, _ := parseMemoryID(last.ID)
		return encodeCursor("mem", last.pos, strconv.FormatInt(n, 10))
	})
	return items, next, nil
}

// SearchMemory returns the notes that match query, best first: full-text
// search (SQLite FTS5, bm25 ranking) over the words of query, each matched
// as a word or the start of one, any of them sufficing; a note matching
// more of them, or rarer ones, ranks higher. Case and diacritics are
// ignored. limit is as for ListMemoryItems. A query without a letter or
// digit is ErrInvalid.
func (s *Store) SearchMemory(ctx context.Context, query string, limit int) ([]MemoryHit, error) {
	limit, err := pageLimit(limit, DefaultMemoryPage, MaxMemoryPage)
	if err != nil {
		return nil, fmt.Errorf("store: searching memory: %w", err)
	}
	search, match := s.engine().MemorySearch(query)
	if search == "" {
		return nil, fmt.Errorf("store: searching memory: the query %q has no word to search for: %w", query, ErrInvalid)
	}
	hits := []MemoryHit{}
	err = s.read(ctx, "searching memory", func() error {
		hits = hits[:0]
		rows, err := s.db.QueryContext(ctx, search, match, limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var h MemoryHit
			var id, c, u int64
			var rank float64
			if err := rows.Scan(&id, &h.Content, &c, &u, &rank); err != nil {
				return err
			}
			h.ID, h.CreatedAt, h.UpdatedAt, h.Score = memoryID(id), fromNS(c), fromNS(u), -rank
			hits = append(hits, h)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return hits, nil
}

// maxQueryTerms bounds the words of one search, so a pasted page cannot
// make an enormous FTS query.
const maxQueryTerms = 32

// ftsQuery turns free text into an FTS5 query: each word (a run of letters
// and digits) quoted as a prefix term, joined by OR. Quoting means no
// character of the user's text is FTS5 syntax.
func ftsQuery(q string) string {
	words := strings.FieldsFunc(q, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if len(words) > maxQueryTerms {
		words = words[:maxQueryTerms]
	}
	for i, w := range words {
		words[i] = `"` + w + `"*`
	}
	return strings.Join(words, " OR ")
}

// memoryID is the id people and models see for row n.
func memoryID(n int64) string { return "m" + strconv.FormatInt(n, 10) }

// parseMemoryID returns the row of an id such as "m12"; anything else is
// ErrInvalid.
func parseMemoryID(id string) (int64, error) {
	bad := fmt.Errorf("memory item id %q is not valid (ids look like m12): %w", id, ErrInvalid)
	if len(id) < 2 || id[0] != 'm' || id[1] == '0' {
		return 0, bad
	}
	for i := 1; i < len(id); i++ {
		if id[i] < '0' || id[i] > '9' {
			return 0, bad
		}
	}
	n, err := strconv.ParseInt(id[1:], 10, 64)
	if err != nil {
		return 0, bad
	}
	return n, nil
}

// insertMemoryItem adds a note after the last one.
func (s *Store) insertMemoryItem(ctx context.Context, tx *sql.Tx, content string) (MemoryItem, error) {
	now := toNS(s.now())
	var n int64
	err := tx.QueryRowContext(ctx, `INSERT INTO memory_items (pos, content, created_at, updated_at)
		VALUES ((SELECT COALESCE(MAX(pos), 0) + 1 FROM memory_items), ?, ?, ?) RETURNING id`, content, now, now).Scan(&n)
	if err != nil {
		return MemoryItem{}, err
	}
	return MemoryItem{ID: memoryID(n), Content: content, CreatedAt: fromNS(now), UpdatedAt: fromNS(now)}, nil
}

// memoryTotals returns how many notes there are and their bytes of text.
func memoryTotals(ctx context.Context, q querier) (count, total int, err error) {
	err = q.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(OCTET_LENGTH(content)), 0) FROM memory_items`).Scan(&count, &total)
	return count, total, err
}

// memoryItems reads notes; where ("" for all, in order) filters and orders
// them.
func memoryItems(ctx context.Context, q querier, where string, args []any) ([]MemoryItem, error) {
	if where == "" {
		where = "ORDER BY pos, id"
	}
	rows, err := q.QueryContext(ctx, `SELECT id, pos, content, created_at, updated_at FROM memory_items `+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []MemoryItem{}
	for rows.Next() {
		var id, c, u int64
		var it MemoryItem
		if err := rows.Scan(&id, &it.pos, &it.Content, &c, &u); err != nil {
			return nil, err
		}
		it.ID, it.CreatedAt, it.UpdatedAt = memoryID(id), fromNS(c), fromNS(u)
		out = append(out, it)
	}
	return out, rows.Err()
}

// readMemory reads the enabled flag and the notes, in order.
func readMemory(ctx context.Context, q querier) (Memory, error) {
	m := Memory{Items: []string{}}
	var v string
	err := q.QueryRowContext(ctx, `SELECT value FROM kv WHERE key = ?`, memoryKey).Scan(&v)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return m, err
	default:
		var doc struct {
			Enabled bool `json:"enabled"`
		}
		if err := json.Unmarshal([]byte(v), &doc); err != nil {
			return m, fmt.Errorf("the stored memory is damaged: %w", err)
		}
		m.Enabled = doc.Enabled
	}
	items, err := memoryItems(ctx, q, "", nil)
	if err != nil {
		return m, err
	}
	for _, it := range items {
		m.Items = append(m.Items, it.Content)
	}
	return m, nil
}

// putEnabled stores the enabled flag.
func (s *Store) putEnabled(ctx context.Context, tx *sql.Tx, enabled bool) error {
	b, _ := json.Marshal(struct {
		Enabled bool `json:"enabled"`
	}{enabled})
	_, err := tx.ExecContext(ctx, `INSERT INTO kv (key, value, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
		memoryKey, string(b), toNS(s.now()))
	return err
}

// ValidMemoryID reports whether id has the form of a memory item id ("m12"),
// so a caller can refuse a malformed one before it opens the store.
func ValidMemoryID(id string) bool {
	_, err := parseMemoryID(id)
	return err == nil
}
