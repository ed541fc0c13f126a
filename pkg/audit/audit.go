// Package audit keeps tavo's local audit log: what fetch and search did,
// with exactly the fields their engines allow (SPEC §6, §7). It appends one
// JSON object per line to <data-dir>/audit.jsonl, private to the user. The
// store (SQLite) will implement the same engine interfaces.
package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/tavo-cli/tavo/pkg/search"
)

// FileName is the audit log's name inside the data directory.
const FileName = "audit.jsonl"

// Log appends audit rows to a file. The zero value is unusable; use Open.
type Log struct {
	path string
	mu   sync.Mutex
}

// Open returns the log of dataDir. Nothing is created until the first row.
func Open(dataDir string) *Log {
	return &Log{path: filepath.Join(dataDir, FileName)}
}

// Path is the log file's path.
func (l *Log) Path() string { return l.path }

// Row is one line of the log: its kind ("fetch" or "search") and record.
type Row struct {
	Kind   string               `json:"kind"`
	Search *search.SearchRecord `json:"search,omitempty"`
}

// RecordSearch implements search.Auditor.
func (l *Log) RecordSearch(ctx context.Context, rec search.SearchRecord) error {
	return l.append(Row{Kind: "search", Search: &rec})
}

// append writes one row with a single write on an O_APPEND file, so rows of
// concurrent tavo processes do not interleave.
func (l *Log) append(r Row) error {
	line, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("audit: encoding a %s row: %w", r.Kind, err)
	}
	line = append(line, '\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(l.path), 0o700); err != nil {
		return fmt.Errorf("audit: creating the data directory: %w", err)
	}
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("audit: opening the log: %w", err)
	}
	if _, err := f.Write(line); err != nil {
		f.Close()
		return fmt.Errorf("audit: writing the log: %w", err)
	}
	return f.Close()
}
