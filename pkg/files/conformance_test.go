package files_test

import (
	"sync"
	"testing"

	"github.com/tavo-cli/tavo/pkg/files"
	"github.com/tavo-cli/tavo/pkg/store/storetest"
)

// TestConformance runs the file store conformance suite on disk; package
// store/postgres runs it with the files in PostgreSQL.
func TestConformance(t *testing.T) {
	var mu sync.Mutex
	dirs := map[*testing.T]string{}
	storetest.RunFiles(t, func(t *testing.T) *files.Store {
		mu.Lock()
		defer mu.Unlock()
		if dirs[t] == "" {
			dirs[t] = t.TempDir()
		}
		return files.Open(dirs[t])
	})
}
