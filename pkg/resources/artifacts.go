package resources

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/tavo-cli/tavo/pkg/ids"
	"github.com/tavo-cli/tavo/pkg/store"
)

// The two schemes kept by the artifact store.
const (
	// KindArtifact is artifact://: snapshots a run made.
	KindArtifact = store.ArtifactKindArtifact
	// KindAsset is asset://: what a person attached.
	KindAsset = store.ArtifactKindAsset
)

// ArtifactStore keeps artifacts; *store.Store is one.
type ArtifactStore interface {
	CreateArtifact(ctx context.Context, a store.Artifact, data []byte) (*store.Artifact, error)
	ArtifactData(ctx context.Context, id string) (*store.Artifact, []byte, error)
}

// ArtifactDescriber describes an artifact without reading its bytes, so
// ?view=meta on an asset reads none; *store.Store is one. A store without
// it answers meta from ArtifactData.
type ArtifactDescriber interface {
	GetArtifact(ctx context.Context, id string) (*store.Artifact, error)
}

// describe returns the artifact's description, its bytes only when the
// store cannot describe it without them.
func describe(ctx context.Context, arts ArtifactStore, id string) (*store.Artifact, error) {
	if d, ok := arts.(ArtifactDescriber); ok {
		return d.GetArtifact(ctx, id)
	}
	a, _, err := arts.ArtifactData(ctx, id)
	return a, err
}

// MemoryArtifacts keeps artifacts in memory, for a run without a store.
type MemoryArtifacts struct {
	mu   sync.Mutex
	arts map[string]memArtifact
}

type memArtifact struct {
	a    store.Artifact
	data []byte
}

// NewMemoryArtifacts returns an empty in-memory artifact store.
func NewMemoryArtifacts() *MemoryArtifacts {
	return &MemoryArtifacts{arts: map[string]memArtifact{}}
}

// CreateArtifact stores a copy of data.
func (m *MemoryArtifacts) CreateArtifact(_ context.Context, a store.Artifact, data []byte) (*store.Artifact, error) {
	if a.Kind == "" {
		a.Kind = KindArtifact
	}
	prefix := "art"
	if a.Kind == KindAsset {
		prefix = "ast"
	}
	now := time.Now()
	a.ID, a.CreatedAt, a.Size = ids.New(prefix, now), now.UTC(), int64(len(data))
	// Lines as the store counts them, so metadata needs no bytes.
	a.Lines = bytes.Count(data, []byte("\n"))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		a.Lines++
	}
	sum := sha256.Sum256(data)
	a.SHA256 = hex.EncodeToString(sum[:])
	m.mu.Lock()
	defer m.mu.Unlock()
	m.arts[a.ID] = memArtifact{a: a, data: append([]byte(nil), data...)}
	return &a, nil
}

// ArtifactData returns the artifact and its bytes, or store.ErrNotFound.
func (m *MemoryArtifacts) ArtifactData(_ context.Context, id string) (*store.Artifact, []byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	x, ok := m.arts[id]
	if !ok {
		return nil, nil, fmt.Errorf("artifact %s: %w", id, store.ErrNotFound)
	}
	a := x.a
	return &a, x.data, nil
}

// GetArtifact returns the artifact's description, or store.ErrNotFound.
func (m *MemoryArtifacts) GetArtifact(ctx context.Context, id string) (*store.Artifact, error) {
	a, _, err := m.ArtifactData(ctx, id)
	return a, err
}

// artifactScheme reads artifact:// and asset:// from the artifact store.
type artifactScheme struct{ kind string }

func (s artifactScheme) Name() string { return s.kind }

func (s artifactScheme) Read(ctx context.Context, c *Centre, req Request) (Result, error) {
	u, err := ParseFileURL(req.URL)
	if err != nil {
		return nil, err
	}
	var a *store.Artifact
	var data []byte
	if u.Meta && !u.HasQuestion {
		// Metadata is stored beside the bytes: an asset of many MiB is
		// described without reading it.
		a, err = describe(ctx, c.artifacts, u.Path)
	} else {
		a, data, err = c.artifacts.ArtifactData(ctx, u.Path)
	}
	if err == nil && (a.Kind != s.kind || !visible(a, req.Scope)) {
		err = store.ErrNotFound
	}
	if errors.Is(err, store.ErrNotFound) {
		return nil, errorf(CodeResourceNotFound, "there is no %s %q in this session", s.kind, u.Path)
	}
	if err != nil {
		return nil, sourceError(err)
	}
	r, size := TextSource(string(data))
	if data == nil {
		size = a.Size // described only
	}
	return c.ReadFile(ctx, u, &File{R: r, Size: size, Name: a.Name, MediaType: a.MediaType, ModTime: a.CreatedAt,
		SHA256: a.SHA256, Lines: a.Lines, Version: a.SHA256})
}

// visible applies an artifact's scope: a model sees its own session's
// artifacts; a person sees all, or one session's with --session.
func visible(a *store.Artifact, sc Scope) bool {
	if sc.Person && sc.SessionID == "" {
		return true
	}
	return a.SessionID == sc.SessionID
}

// Truncated is what the model sees of a result over the text budget:
// `{"truncated":true,"artifact","preview","continue"}`.
type Truncated struct {
	Truncated bool   `json:"truncated"`
	Artifact  string `json:"artifact"`
	Preview   string `json:"preview"`
	Continue  string `json:"continue,omitempty"`
}

// Archive keeps content whole as an artifact of scope's session and run and
// returns its first page with the URLs to read on. name labels it
// (the tool's name); mediaType is text/plain or application/json.
func (c *Centre) Archive(ctx context.Context, scope Scope, name, mediaType string, content []byte) (*Truncated, error) {
	a, err := c.artifacts.CreateArtifact(ctx, store.Artifact{Kind: KindArtifact, SessionID: scope.SessionID, RunID: scope.RunID,
		Name: name, MediaType: mediaType}, content)
	if err != nil {
		return nil, err
	}
	u := &FileURL{Scheme: KindArtifact, RawPath: a.ID, Path: a.ID}
	base := u.Base()
	r, size := TextSource(string(content))
	pg, err := c.pager.Page(r, size, KindArtifact+"\x00"+a.ID+"\x00"+a.SHA256, Selector{}, 0,
		DefaultBudget().Less(2*len(base)+noteOverhead))
	if err != nil {
		return nil, err
	}
	t := &Truncated{Truncated: true, Artifact: base, Preview: pg.Text}
	if pg.More {
		t.Continue = u.WithOffset(pg.Next.Units)
	}
	return t, nil
}

// LazyArtifacts is an artifact store opened on first use, so a run that
// archives nothing never opens the store.
func LazyArtifacts(open func(ctx context.Context) (*store.Store, error)) ArtifactStore {
	return lazyArtifacts{open: open}
}

type lazyArtifacts struct {
	open func(ctx context.Context) (*store.Store, error)
}

func (l lazyArtifacts) CreateArtifact(ctx context.Context, a store.Artifact, data []byte) (*store.Artifact, error) {
	s, err := l.open(ctx)
	if err != nil {
		return nil, err
	}
	return s.CreateArtifact(ctx, a, data)
}

func (l lazyArtifacts) GetArtifact(ctx context.Context, id string) (*store.Artifact, error) {
	s, err := l.open(ctx)
	if err != nil {
		return nil, err
	}
	return s.GetArtifact(ctx, id)
}

func (l lazyArtifacts) ArtifactData(ctx context.Context, id string) (*store.Artifact, []byte, error) {
	s, err := l.open(ctx)
	if err != nil {
		return nil, nil, err
	}
	return s.ArtifactData(ctx, id)
}
