package resources

import (
	"context"

	"github.com/tavo-cli/tavo/pkg/files"
	"github.com/tavo-cli/tavo/pkg/store"
)

// Engines are what the standard schemes read from; a nil engine leaves its
// scheme out.
type Engines struct {
	// Store opens the store artifacts and assets live in; nil keeps them
	// in memory.
	Store func(ctx context.Context) (*store.Store, error)
	// Files backs local://.
	Files *files.Store
	// Fetch backs http:// and https://.
	Fetch Fetcher
	// Workspace is the directory workspace:// reads; "" refuses every
	// workspace read with permission_denied.
	Workspace string
}

// NewStandard returns a centre with tavo's schemes: artifact, asset, local,
// workspace and http(s). A workspace that cannot be opened is an error.
func NewStandard(e Engines) (*Centre, error) {
	var arts ArtifactStore
	if e.Store != nil {
		arts = LazyArtifacts(e.Store)
	}
	c := New(arts)
	if e.Files != nil {
		c.Set(Local(e.Files))
	}
	if e.Fetch != nil {
		c.Set(HTTP("http", e.Fetch))
		c.Set(HTTP("https", e.Fetch))
	}
	c.Set(NoWorkspace())
	if e.Workspace != "" {
		ws, err := Workspace(e.Workspace)
		if err != nil {
			return nil, err
		}
		c.Set(ws)
	}
	return c, nil
}
