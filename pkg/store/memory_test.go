package store

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// A data dir of schema version 2 keeps its memory through migration 4: the
// notes become items in their order, enabled is kept, and they are
// searchable.
func TestMigrationKeepsMemoryInOrder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", dsn(filepath.Join(dir, FileName)))
	if err != nil {
		t.Fatal(err)
	}
	// Twelve notes, so a text ordering of json_each's keys ("10" < "2")
	// would show.
	var old []string
	for i := range 12 {
		old = append(old, fmt.Sprintf(`"note %c %d"`, 'z'-i, i))
	}
	doc := `{"enabled":true,"memories":[` + strings.Join(old, ",") + `]}`
	for _, q := range []string{migrations[0], migrations[1], "PRAGMA user_version = 2",
		`INSERT INTO kv (key, value, updated_at) VALUES ('memory', '` + doc + `', 5)`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	s, _ := openAt(t, dir)
	m, err := s.Memory(ctxb())
	if err != nil || !m.Enabled || len(m.Items) != 12 {
		t.Fatalf("memory after migration: %+v %v", m, err)
	}
	for i, it := range m.Items {
		if want := strings.Trim(old[i], `"`); it != want {
			t.Fatalf("note %d = %q, want %q", i, it, want)
		}
	}
	items, _, err := s.ListMemoryItems(ctxb(), 0, "")
	if err != nil || items[0].ID != "m1" || items[11].ID != "m12" || items[11].Content != "note o 11" {
		t.Fatalf("items: %+v %v", items, err)
	}
	hits, err := s.SearchMemory(ctxb(), "NOTE o", 5)
	if err != nil || len(hits) == 0 || hits[0].ID != "m12" {
		t.Fatalf("search after migration: %+v %v", hits, err)
	}
}

func TestMemoryItems(t *testing.T) {
	s, _ := openTest(t)
	a, err := s.SaveMemoryItem(ctxb(), "  The staging host is stg-1  ")
	if err != nil || a.ID != "m1" || a.Content != "The staging host is stg-1" {
		t.Fatalf("save: %+v %v", a, err)
	}
	b, _ := s.SaveMemoryItem(ctxb(), "Deploys happen on Tuesdays")
	c, _ := s.SaveMemoryItem(ctxb(), "Prefers British English; café au lait in the morning")
	if _, err := s.EditMemoryItem(ctxb(), b.ID, "Deploys happen on Thursdays, never on Fridays"); err != nil {
		t.Fatal(err)
	}
	// Seed 000's view sees the items, in order, edits in place.
	m, _ := s.Memory(ctxb())
	if strings.Join(m.Items, "|") != "The staging host is stg-1|Deploys happen on Thursdays, never on Fridays|Prefers British English; café au lait in the morning" {
		t.Fatalf("memory view: %q", m.Items)
	}
	// Search: ranked, prefix, case and diacritics folded, no FTS syntax leaks.
	for q, want := range map[string]string{
		"deploy friday":       b.ID,
		"CAFE":                c.ID,
		"stg":                 a.ID,
		`"staging" OR NEAR(`:  a.ID,
		"thursdays deploys x": b.ID,
	} {
		hits, err := s.SearchMemory(ctxb(), q, 0)
		if err != nil || len(hits) == 0 || hits[0].ID != want {
			t.Errorf("search %q: %+v %v", q, hits, err)
		}
	}
	hits, _ := s.SearchMemory(ctxb(), "host deploys", 0)
	if len(hits) != 2 {
		t.Fatalf("OR of words: %+v", hits)
	}
	if hits, _ := s.SearchMemory(ctxb(), "nothing-like-it", 0); len(hits) != 0 {
		t.Fatalf("no match: %+v", hits)
	}
	if _, err := s.SearchMemory(ctxb(), " ?! ", 0); !errors.Is(err, ErrInvalid) {
		t.Fatalf("wordless query: %v", err)
	}
	// Delete, then the id is gone everywhere, search included.
	if err := s.DeleteMemoryItem(ctxb(), a.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteMemoryItem(ctxb(), a.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second delete: %v", err)
	}
	if _, err := s.EditMemoryItem(ctxb(), a.ID, "x"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("edit of a deleted item: %v", err)
	}
	if hits, _ := s.SearchMemory(ctxb(), "staging", 0); len(hits) != 0 {
		t.Fatalf("deleted item still found: %+v", hits)
	}
	for _, bad := range []string{"", "m", "m0", "m01", "x1", "m1x", "m-1", "m99999999999999999999"} {
		if err := s.DeleteMemoryItem(ctxb(), bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("id %q: %v", bad, err)
		}
	}
	// Ids are never reused; SetMemory keeps the ids of unchanged notes.
	d, _ := s.SaveMemoryItem(ctxb(), "new")
	if d.ID != "m4" {
		t.Fatalf("reused id: %s", d.ID)
	}
	keep := []string{"new", "fresh", "Deploys happen on Thursdays, never on Fridays"}
	if _, err := s.SetMemory(ctxb(), MemoryUpdate{Items: &keep}); err != nil {
		t.Fatal(err)
	}
	items, _, _ := s.ListMemoryItems(ctxb(), 0, "")
	if len(items) != 3 || items[0].ID != "m4" || items[1].ID != "m5" || items[2].ID != b.ID {
		t.Fatalf("after SetMemory: %+v", items)
	}
	if hits, _ := s.SearchMemory(ctxb(), "café", 0); len(hits) != 0 {
		t.Fatalf("a note removed by SetMemory is still found: %+v", hits)
	}
}

func TestMemoryItemPages(t *testing.T) {
	s, _ := openTest(t)
	all := notes(7)
	if _, err := s.AppendMemory(ctxb(), all); err != nil {
		t.Fatal(err)
	}
	var got []string
	cursor := ""
	for pages := 0; ; pages++ {
		items, next, err := s.ListMemoryItems(ctxb(), 3, cursor)
		if err != nil || pages > 3 {
			t.Fatalf("page %d: %v", pages, err)
		}
		for _, it := range items {
			got = append(got, it.Content)
		}
		if next == "" {
			break
		}
		cursor = next
	}
	if strings.Join(got, ",") != strings.Join(all, ",") {
		t.Fatalf("pages: %q", got)
	}
	if _, _, err := s.ListMemoryItems(ctxb(), 0, "bogus"); !errors.Is(err, ErrInvalid) {
		t.Fatalf("bad cursor: %v", err)
	}
	if _, _, err := s.ListMemoryItems(ctxb(), MaxMemoryPage+1, ""); !errors.Is(err, ErrInvalid) {
		t.Fatalf("big limit: %v", err)
	}
}

func TestMemoryItemLimits(t *testing.T) {
	s, _ := openTest(t)
	_, err := s.SaveMemoryItem(ctxb(), "  ")
	var ie *ItemError
	if !errors.As(err, &ie) {
		t.Fatalf("blank: %v", err)
	}
	if _, err := s.SaveMemoryItem(ctxb(), strings.Repeat("x", MaxMemoryItemChars+1)); !errors.As(err, &ie) || ie.Limit != MaxMemoryItemChars {
		t.Fatalf("long: %v", err)
	}
	big := make([]string, 16)
	for i := range big {
		big[i] = strings.Repeat("y", MaxMemoryItemChars)
	}
	if _, err := s.AppendMemory(ctxb(), big); err != nil {
		t.Fatal(err)
	}
	_, err = s.SaveMemoryItem(ctxb(), strings.Repeat("z", 800))
	wantLimitError(t, err, MaxMemoryBytes, 16*MaxMemoryItemChars+800, "bytes", "memory would hold 32800 bytes")
	// An edit counts the difference: growing a note past the total fails,
	// shrinking one works.
	_, err = s.EditMemoryItem(ctxb(), "m1", strings.Repeat("w", 500)+"more")
	if err != nil {
		t.Fatalf("shrinking edit: %v", err)
	}
	if _, err := s.SaveMemoryItem(ctxb(), strings.Repeat("v", 1200)); err != nil {
		t.Fatal(err)
	}
	_, err = s.EditMemoryItem(ctxb(), "m1", strings.Repeat("u", MaxMemoryItemChars))
	wantLimitError(t, err, MaxMemoryBytes, 16*MaxMemoryItemChars+1200, "bytes", "memory would hold")
}

// TestConcurrentSavesHoldTheLimit: saves through two stores on one data dir
// (as two processes would) never take memory past its item count together.
func TestConcurrentSavesHoldTheLimit(t *testing.T) {
	dir := t.TempDir()
	a, _ := openAt(t, dir)
	b, _ := openAt(t, dir)
	start := notes(MaxMemoryItems - 7)
	if _, err := a.SetMemory(ctxb(), MemoryUpdate{Items: &start}); err != nil {
		t.Fatal(err)
	}
	const writers = 30
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok, refused := 0, 0
	for i := range writers {
		st := []*Store{a, b}[i%2]
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := st.SaveMemoryItem(ctxb(), fmt.Sprintf("late note %d", i))
			var le *LimitError
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				ok++
			case errors.As(err, &le) && le.Unit == "items":
				refused++
			default:
				t.Errorf("save %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	items, _, err := a.ListMemoryItems(ctxb(), MaxMemoryPage, "")
	if err != nil || len(items) != MaxMemoryItems || ok != 7 || refused != writers-7 {
		t.Fatalf("%d items stored (limit %d), %d saves succeeded, %d refused, %v", len(items), MaxMemoryItems, ok, refused, err)
	}
}
