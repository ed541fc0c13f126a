// Package open opens the store a URL names: the embedded SQLite store of a
// data directory when the URL is empty, a PostgreSQL database for a
// postgres:// URL. It is the one place that knows both engines, so package
// store imports neither (store/postgres imports store).
package open

import (
	"context"
	"fmt"

	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/store/postgres"
)

// Open opens the store storeURL names ("" is the embedded store in
// dataDir; postgres:// and postgresql:// URLs are PostgreSQL, which still
// uses dataDir for what is not in the database). Errors never contain a
// password.
func Open(ctx context.Context, storeURL, dataDir string) (*store.Store, error) {
	switch {
	case storeURL == "":
		return store.Open(ctx, dataDir)
	case postgres.IsURL(storeURL):
		eng, err := postgres.Open(ctx, storeURL, postgres.Options{})
		if err != nil {
			return nil, err
		}
		return store.OpenEngine(ctx, dataDir, eng)
	}
	// The URL itself is not repeated: it may hold a password.
	return nil, fmt.Errorf("store: the store URL is not one tavo knows: use a postgres:// URL, or none for the embedded store: %w", store.ErrInvalid)
}

// Redact is storeURL without its password, for messages.
func Redact(storeURL string) string {
	if storeURL == "" {
		return ""
	}
	return postgres.Redact(storeURL)
}
