package fetch

import (
	"context"
	"sync"
)

// DefaultMemoryStoreBytes caps the snapshots a run keeps for its tool
// (SPEC §6).
const DefaultMemoryStoreBytes = 24 << 20

// MemoryStore keeps the snapshots of one run in memory, dropping the oldest
// when they would pass the cap. Its cursors are signed with a key made when
// the store is, so they die with it: give each run its own store.
type MemoryStore struct {
	mu    sync.Mutex
	codec cursorCodec
	max   int64
	used  int64
	order [][idBytes]byte
	snaps map[[idBytes]byte]*Snapshot
}

// NewMemoryStore returns a store holding at most maxBytes of snapshots;
// maxBytes ≤ 0 means DefaultMemoryStoreBytes.
func NewMemoryStore(maxBytes int64) *MemoryStore {
	if maxBytes <= 0 {
		maxBytes = DefaultMemoryStoreBytes
	}
	return &MemoryStore{
		codec: cursorCodec{key: newKey(), kind: kindMemory},
		max:   maxBytes,
		snaps: map[[idBytes]byte]*Snapshot{},
	}
}

func snapshotSize(d *Document) int64 {
	n := len(d.URL) + len(d.FinalURL) + len(d.MIME) + len(d.Title) + len(d.Markdown)
	for _, w := range d.Warnings {
		n += len(w.Code) + len(w.Message)
	}
	return int64(n)
}

// Put keeps doc, evicting the oldest snapshots to stay under the cap.
func (m *MemoryStore) Put(_ context.Context, doc *Document) (*Snapshot, error) {
	size := snapshotSize(doc)
	if size > m.max {
		return nil, limitError(LimitMarkdown, m.max)
	}
	id := newID()
	s := &Snapshot{ID: cursorData{id: id}.idString(), Doc: doc, id: id}
	m.mu.Lock()
	defer m.mu.Unlock()
	for m.used+size > m.max && len(m.order) > 0 {
		old := m.order[0]
		m.order = m.order[1:]
		m.used -= snapshotSize(m.snaps[old].Doc)
		delete(m.snaps, old)
	}
	m.order = append(m.order, id)
	m.snaps[id] = s
	m.used += size
	return s, nil
}

// Get resolves a cursor minted by this store.
func (m *MemoryStore) Get(_ context.Context, cursor string) (*Snapshot, int, error) {
	d, err := m.codec.decode(cursor)
	if err != nil {
		return nil, 0, err
	}
	m.mu.Lock()
	s := m.snaps[d.id]
	m.mu.Unlock()
	if s == nil {
		return nil, 0, errExpiredCursor("its snapshot was dropped to keep the run's cache under " + sizeString(m.max))
	}
	if d.offset > len(s.Doc.Markdown) {
		return nil, 0, errInvalidCursor()
	}
	return s, d.offset, nil
}

// Cursor mints the cursor for offset in s.
func (m *MemoryStore) Cursor(s *Snapshot, offset int) string {
	return m.codec.encode(cursorData{id: s.id, offset: offset})
}
