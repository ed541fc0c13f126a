package store_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/tavo-cli/tavo/pkg/files"
	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/store/storetest"
)

// BenchmarkEngine measures the store targets of SPEC §10 on the embedded
// engine with the suite package store/postgres runs on PostgreSQL, so
// scripts/bench.sh can print both side by side.
func BenchmarkEngine(b *testing.B) {
	open := func(b *testing.B) storetest.Handles {
		dir := filepath.Join(b.TempDir(), "data")
		return func() *store.Store {
			s, err := store.Open(context.Background(), dir)
			if err != nil {
				b.Fatal(err)
			}
			return s
		}
	}
	b.Run("SessionSendSetup", func(b *testing.B) { storetest.BenchSessionSendSetup(b, open) })
	b.Run("ReadMessagesPage", func(b *testing.B) { storetest.BenchReadMessagesPage(b, open) })
	b.Run("FollowLatency", func(b *testing.B) { storetest.BenchFollowLatency(b, open) })
	b.Run("CancelLatency", func(b *testing.B) { storetest.BenchCancelLatency(b, open) })
	b.Run("FileList", func(b *testing.B) {
		fs := files.Open(b.TempDir())
		for i := range 10_000 {
			if _, err := fs.Save(context.Background(), files.Global(), fmt.Sprintf("file-%05d.txt", i), []byte("0123456789")); err != nil {
				b.Fatal(err)
			}
		}
		storetest.BenchFileList(b, fs)
	})
}
