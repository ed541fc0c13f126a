package cmd

import (
	"database/sql"

	"context"
	"github.com/tavo-cli/tavo/pkg/files"

	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/store"
	storeopen "github.com/tavo-cli/tavo/pkg/store/open"
)

// StoreURL is the store to open: TAVO_STORE_URL, else [store] url, else ""
// (the embedded store in the data directory). The config file is read only
// when the variable is unset.
func (f *Factory) StoreURL() (string, error) {
	if u := f.Getenv(config.StoreURLEnv); u != "" {
		return u, nil
	}
	cfg, err := f.Config()
	if err != nil {
		return "", err
	}
	u, _ := config.StoreURL(cfg, f.Getenv)
	return u, nil
}

// openStore opens the store StoreURL names; the caller closes it.
func (f *Factory) openStore(ctx context.Context) (*store.Store, error) {
	u, err := f.StoreURL()
	if err != nil {
		return nil, err
	}
	return f.openStoreAt(ctx, u)
}

// openStoreAt opens the store at storeURL and says under -v which engine
// and where (never the password).
func (f *Factory) openStoreAt(ctx context.Context, storeURL string) (*store.Store, error) {
	st, err := storeopen.Open(ctx, storeURL, f.DataDirectory())
	if err != nil {
		return nil, err
	}
	source := "default"
	if storeURL != "" {
		source = "config [store] url"
		if f.Getenv(config.StoreURLEnv) != "" {
			source = "env " + config.StoreURLEnv
		}
	}
	verbosef(f, "store: %s %s (%s)", st.Engine(), st.Location(), source)
	return st, nil
}

// Files is the file store: on disk in the data directory with the embedded
// store, in the database with a PostgreSQL one (opened on first use, so a
// command that touches no file opens nothing).
func (f *Factory) Files() *files.Store {
	return files.OpenWith(f.DataDirectory(), func(ctx context.Context) (*sql.DB, error) {
		u, err := f.StoreURL()
		if err != nil || u == "" {
			return nil, err
		}
		st, err := f.Store(ctx)
		if err != nil {
			return nil, err
		}
		return st.SharedDB(), nil
	})
}
