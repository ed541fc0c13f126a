package audit

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/tavo-cli/tavo/pkg/search"
)

var (
	_ search.Auditor = (*Log)(nil)
)

func TestRowsArePrivateAndWhole(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	l := Open(dir)
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			_ = l.RecordSearch(context.Background(), search.SearchRecord{API: "b", Engine: "brave", Query: search.Query{Text: "rust"}, Status: "ok"})
		}()
		go func() {
			defer wg.Done()
			_ = l.RecordSearch(context.Background(), search.SearchRecord{API: "t", Engine: "tavily", Query: search.Query{Text: "go"}, Status: "ok"})
		}()
	}
	wg.Wait()
	st, err := os.Stat(l.Path())
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("audit file mode %v, want 0600", st.Mode().Perm())
	}
	if dst, _ := os.Stat(dir); dst.Mode().Perm() != 0o700 {
		t.Fatalf("data dir mode %v, want 0700", dst.Mode().Perm())
	}
	f, _ := os.Open(l.Path())
	defer f.Close()
	sc := bufio.NewScanner(f)
	kinds := map[string]int{}
	for sc.Scan() {
		var r Row
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("torn row %q: %v", sc.Text(), err)
		}
		kinds[r.Kind]++
	}
	if kinds["search"] != 100 {
		t.Fatalf("rows %v", kinds)
	}
}
