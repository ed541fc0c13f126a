package fetch

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// DefaultDiskTTL is how long `tavo fetch` keeps a snapshot (SPEC §6).
const DefaultDiskTTL = 30 * time.Minute

// keyFile holds the per-user cursor key inside the store's directory.
const keyFile = "cursor.key"

// snapExt names snapshot files.
const snapExt = ".snap"

// DiskStore keeps snapshots as private files so `tavo fetch --cursor` can
// read the next page in a later process. Files are 0600 in a 0700
// directory; cursors are signed with a per-user key kept there, and expire
// with their snapshot after TTL. Expired files are removed lazily, whenever
// a snapshot is put.
type DiskStore struct {
	dir   string
	codec cursorCodec
	// TTL is how long a snapshot lives; zero means DefaultDiskTTL.
	TTL time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// OpenDiskStore opens (creating when needed) the store in dir, for example
// <data-dir>/cache/fetch.
func OpenDiskStore(dir string) (*DiskStore, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, storeError("create the fetch cache directory", err)
	}
	// MkdirAll leaves an existing directory as it was; the cache holds
	// fetched pages, so it must be the user's alone.
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, storeError("make the fetch cache directory private", err)
	}
	key, err := loadKey(filepath.Join(dir, keyFile))
	if err != nil {
		return nil, err
	}
	return &DiskStore{dir: dir, codec: cursorCodec{key: key, kind: kindDisk}}, nil
}

func loadKey(path string) ([]byte, error) {
	for range 2 {
		key, err := os.ReadFile(path)
		if err == nil {
			if len(key) != keyBytes {
				return nil, storeError("read the cursor key", fmt.Errorf("%s holds %d bytes, want %d; delete it to make a new key", path, len(key), keyBytes))
			}
			return key, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, storeError("read the cursor key", err)
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue // another process made it first; read theirs
		}
		if err != nil {
			return nil, storeError("create the cursor key", err)
		}
		key = newKey()
		_, werr := f.Write(key)
		cerr := f.Close()
		if werr != nil || cerr != nil {
			_ = os.Remove(path)
			return nil, storeError("write the cursor key", errors.Join(werr, cerr))
		}
		return key, nil
	}
	return nil, storeError("read the cursor key", errors.New("it keeps changing"))
}

func storeError(what string, err error) *Error {
	return wrapf(CodeInternalError, err, "could not %s: %v", what, err)
}

func (s *DiskStore) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *DiskStore) ttl() time.Duration {
	if s.TTL > 0 {
		return s.TTL
	}
	return DefaultDiskTTL
}

// diskSnapshot is the file format of one snapshot.
type diskSnapshot struct {
	Version  int       `json:"version"`
	Expires  time.Time `json:"expires"`
	Document *Document `json:"document"`
}

func (s *DiskStore) path(id [idBytes]byte) string {
	return filepath.Join(s.dir, hex.EncodeToString(id[:])+snapExt)
}

// Put writes doc atomically (temporary file, then rename) and removes
// expired snapshots.
func (s *DiskStore) Put(ctx context.Context, doc *Document) (*Snapshot, error) {
	s.sweep()
	id := newID()
	expires := s.now().Add(s.ttl()).Truncate(time.Second)
	data, err := json.Marshal(diskSnapshot{Version: 1, Expires: expires, Document: doc})
	if err != nil {
		return nil, storeError("encode the snapshot", err)
	}
	tmp, err := os.CreateTemp(s.dir, ".tmp-*")
	if err != nil {
		return nil, storeError("write the snapshot", err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		_ = os.Remove(tmp.Name())
		return nil, storeError("write the snapshot", err)
	}
	if err := os.Rename(tmp.Name(), s.path(id)); err != nil {
		_ = os.Remove(tmp.Name())
		return nil, storeError("write the snapshot", err)
	}
	return &Snapshot{ID: hex.EncodeToString(id[:]), Doc: doc, Expires: expires, id: id}, nil
}

// Get resolves a cursor minted by this store (that is, by this user).
func (s *DiskStore) Get(ctx context.Context, cursor string) (*Snapshot, int, error) {
	d, err := s.codec.decode(cursor)
	if err != nil {
		return nil, 0, err
	}
	now := s.now()
	if !now.Before(time.Unix(d.expires, 0)) {
		_ = os.Remove(s.path(d.id))
		return nil, 0, errExpiredCursor("fetch snapshots are kept " + s.ttl().String())
	}
	data, err := os.ReadFile(s.path(d.id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, errExpiredCursor("its snapshot is no longer in the cache")
	}
	if err != nil {
		return nil, 0, storeError("read the snapshot", err)
	}
	var snap diskSnapshot
	if err := json.Unmarshal(data, &snap); err != nil || snap.Document == nil {
		return nil, 0, errExpiredCursor("its snapshot is damaged")
	}
	if !now.Before(snap.Expires) {
		_ = os.Remove(s.path(d.id))
		return nil, 0, errExpiredCursor("fetch snapshots are kept " + s.ttl().String())
	}
	if d.offset > len(snap.Document.Markdown) {
		return nil, 0, errInvalidCursor()
	}
	return &Snapshot{ID: d.idString(), Doc: snap.Document, Expires: snap.Expires, id: d.id}, d.offset, nil
}

// Cursor mints the cursor for offset in snap; it expires with the snapshot.
func (s *DiskStore) Cursor(snap *Snapshot, offset int) string {
	return s.codec.encode(cursorData{id: snap.id, expires: snap.Expires.Unix(), offset: offset})
}

// sweep removes snapshots (and abandoned temporary files) older than the
// TTL. Failures are ignored: the next sweep tries again.
func (s *DiskStore) sweep() {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return
	}
	cutoff := s.now().Add(-s.ttl())
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, snapExt) && !strings.HasPrefix(name, ".tmp-") {
			continue
		}
		info, err := e.Info()
		if err == nil && info.ModTime().Before(cutoff) {
			_ = os.Remove(filepath.Join(s.dir, name))
		}
	}
}
