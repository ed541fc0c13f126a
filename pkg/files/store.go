// Package files is tavo's file store (SPEC §5, §8): flat folders of real
// files in two scopes, global and the chat scope of each session, under
// <data-dir>/files. Names are checked so that none can leave its folder;
// writes are atomic (a temporary file renamed into place); listings are
// sorted by name and paged with opaque cursors bound to their scope.
//
// The store knows nothing of models or commands: pkg/tools/files adapts it
// to the model, cmd/file.go to people.
package files

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// DefaultMaxFileSize is the largest file Save accepts and Load reads when
// Store.MaxFileSize is zero: 20 MiB, the size of the web fetch's download
// limit, enough for documents and images while keeping a load in memory.
const DefaultMaxFileSize = 20 << 20

// Folder and file names inside <data-dir>/files.
const (
	dirName       = "files"
	globalDir     = "global"
	sessionsDir   = "sessions"
	stagingDir    = "tmp"
	cursorKeyFile = "cursor.key"
)

// Store is the file store of one data directory. It is safe for concurrent
// use, and several processes may share a data directory: every write
// replaces a file whole, by rename.
type Store struct {
	root string
	// MaxFileSize caps one file, in bytes; 0 means DefaultMaxFileSize.
	MaxFileSize int64

	mu  sync.Mutex
	key []byte // cursor signing key, loaded on first use

	// dbOpen, when set, may put the files in a database (OpenWith).
	dbOpen DBOpener
}

// Open returns the store of dataDir. Nothing is read or created until the
// first call that needs it.
func Open(dataDir string) *Store {
	return &Store{root: filepath.Join(dataDir, dirName)}
}

// Entry describes one stored file.
type Entry struct {
	// Path is the logical path, "chat/<name>" or "global/<name>".
	Path string `json:"path"`
	Name string `json:"name"`
	// Size is in bytes.
	Size     int64  `json:"size"`
	MIMEType string `json:"mimeType"`
	// ModifiedAt is in UTC, to the millisecond.
	ModifiedAt time.Time `json:"modifiedAt"`
}

// maxSize is the effective size limit.
func (s *Store) maxSize() int64 {
	if s.MaxFileSize > 0 {
		return s.MaxFileSize
	}
	return DefaultMaxFileSize
}

// dir is the folder of loc on disk; loc must be checked.
func (s *Store) dir(loc Location) string {
	if loc.Scope == ScopeGlobal {
		return filepath.Join(s.root, globalDir)
	}
	return filepath.Join(s.root, sessionsDir, loc.Session)
}

// file checks loc and name and returns the file's place on disk.
func (s *Store) file(loc Location, name string) (string, error) {
	if err := loc.check(); err != nil {
		return "", err
	}
	if err := CheckName(name); err != nil {
		return "", err
	}
	return filepath.Join(s.dir(loc), name), nil
}

// notFound is the error for a file missing from loc.
func notFound(loc Location, name string) *Error {
	return &Error{Kind: KindNotFound, Field: "name",
		Msg: fmt.Sprintf("no file %s in the %s scope", quote(name), loc.Scope)}
}

// tooLarge is the error for content over the limit.
func tooLarge(limit int64, what string) *Error {
	return &Error{Kind: KindTooLarge, Field: "content", Limit: limit,
		Msg: fmt.Sprintf("%s is over the %s limit of one file", what, formatSize(limit))}
}

// Save stores data as name in loc, replacing any file of that name, and
// returns the new entry.
func (s *Store) Save(ctx context.Context, loc Location, name string, data []byte) (Entry, error) {
	if int64(len(data)) > s.maxSize() {
		return Entry{}, tooLarge(s.maxSize(), fmt.Sprintf("the content (%s)", formatSize(int64(len(data)))))
	}
	return s.SaveFrom(ctx, loc, name, &byteReader{b: data})
}

// SaveFrom stores what r yields as name in loc, replacing any file of that
// name, and returns the new entry. The content is written to a temporary
// file, synced, then renamed into place, so readers see the old file or the
// new one, never a part; more than the size limit is KindTooLarge and
// leaves the old file as it was.
func (s *Store) SaveFrom(ctx context.Context, loc Location, name string, r io.Reader) (Entry, error) {
	target, err := s.file(loc, name)
	if err != nil {
		return Entry{}, err
	}
	if err := ctx.Err(); err != nil {
		return Entry{}, err
	}
	if db, err := s.database(ctx); err != nil {
		return Entry{}, err
	} else if db != nil {
		return s.dbSave(ctx, db, loc, name, r)
	}
	dir := filepath.Dir(target)
	staging := filepath.Join(s.root, stagingDir)
	for _, d := range []string{dir, staging} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return Entry{}, unavailable("creating the "+string(loc.Scope)+" folder", true, err)
		}
	}
	// The temporary file lies in a staging folder beside the scopes rather
	// than among the files: a crash then never leaves a stray file in a
	// listing, and no valid name is reserved. Rename stays atomic because
	// the staging folder is on the same file system.
	tmp, err := os.CreateTemp(staging, "save-*")
	if err != nil {
		return Entry{}, unavailable("saving "+loc.Path(name), true, err)
	}
	committed := false
	defer func() {
		if !committed {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	limit := s.maxSize()
	head := &headWriter{}
	dst := &errWriter{w: tmp}
	n, err := io.Copy(io.MultiWriter(dst, head), io.LimitReader(&ctxReader{ctx: ctx, r: r}, limit+1))
	if err != nil {
		if ctx.Err() != nil {
			return Entry{}, ctx.Err()
		}
		if dst.err != nil {
			return Entry{}, unavailable("saving "+loc.Path(name), true, dst.err)
		}
		// The content's source failed, not the store.
		return Entry{}, fmt.Errorf("files: reading the content of %s: %w", loc.Path(name), err)
	}
	if n > limit {
		return Entry{}, tooLarge(limit, "the content")
	}
	if err := tmp.Chmod(0o600); err != nil {
		return Entry{}, unavailable("saving "+loc.Path(name), true, err)
	}
	if err := tmp.Sync(); err != nil {
		return Entry{}, unavailable("saving "+loc.Path(name), true, err)
	}
	if err := tmp.Close(); err != nil {
		return Entry{}, unavailable("saving "+loc.Path(name), true, err)
	}
	if st, err := os.Lstat(target); err == nil && st.IsDir() {
		return Entry{}, invalid("name", nameExpected,
			fmt.Sprintf("cannot save %s: a folder of that name is in the way", loc.Path(name)))
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return Entry{}, unavailable("saving "+loc.Path(name), true, err)
	}
	committed = true
	st, err := os.Lstat(target)
	if err != nil {
		return Entry{}, unavailable("saving "+loc.Path(name), true, err)
	}
	return entryOf(loc, name, st, DetectMIME(name, head.b)), nil
}

// Load returns the content of name in loc and its entry. Files over the
// size limit (put there by hand) are KindTooLarge: use Reader to stream them.
func (s *Store) Load(ctx context.Context, loc Location, name string) ([]byte, Entry, error) {
	rc, e, err := s.Reader(ctx, loc, name)
	if err != nil {
		return nil, Entry{}, err
	}
	defer rc.Close()
	if e.Size > s.maxSize() {
		return nil, Entry{}, &Error{Kind: KindTooLarge, Field: "name", Limit: s.maxSize(),
			Msg: fmt.Sprintf("%s is %s, over the %s a file may have to be loaded", e.Path, formatSize(e.Size), formatSize(s.maxSize()))}
	}
	data, err := io.ReadAll(io.LimitReader(rc, s.maxSize()+1))
	if err != nil {
		return nil, Entry{}, unavailable("loading "+e.Path, false, err)
	}
	if int64(len(data)) > s.maxSize() {
		return nil, Entry{}, &Error{Kind: KindTooLarge, Field: "name", Limit: s.maxSize(),
			Msg: fmt.Sprintf("%s grew over the %s a file may have to be loaded", e.Path, formatSize(s.maxSize()))}
	}
	e.Size = int64(len(data))
	return data, e, nil
}

// Reader opens name in loc for reading, whatever its size, and returns its
// entry. The caller closes the reader.
func (s *Store) Reader(ctx context.Context, loc Location, name string) (io.ReadCloser, Entry, error) {
	p, err := s.file(loc, name)
	if err != nil {
		return nil, Entry{}, err
	}
	if err := ctx.Err(); err != nil {
		return nil, Entry{}, err
	}
	if db, err := s.database(ctx); err != nil {
		return nil, Entry{}, err
	} else if db != nil {
		return s.dbReader(ctx, db, loc, name)
	}
	f, err := openRegular(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, Entry{}, notFound(loc, name)
		}
		return nil, Entry{}, unavailable("opening "+loc.Path(name), false, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, Entry{}, unavailable("opening "+loc.Path(name), false, err)
	}
	mimeType := MIMEByName(name)
	if mimeType == "" {
		head := make([]byte, sniffBytes)
		n, _ := io.ReadFull(f, head)
		mimeType = DetectMIME(name, head[:n])
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			f.Close()
			return nil, Entry{}, unavailable("opening "+loc.Path(name), false, err)
		}
	}
	return f, entryOf(loc, name, st, mimeType), nil
}

// Stat returns the entry of name in loc, KindNotFound when it is missing.
func (s *Store) Stat(ctx context.Context, loc Location, name string) (Entry, error) {
	p, err := s.file(loc, name)
	if err != nil {
		return Entry{}, err
	}
	if err := ctx.Err(); err != nil {
		return Entry{}, err
	}
	if db, err := s.database(ctx); err != nil {
		return Entry{}, err
	} else if db != nil {
		return s.dbStat(ctx, db, loc, name)
	}
	st, err := os.Lstat(p)
	if err != nil || !st.Mode().IsRegular() {
		if err == nil || errors.Is(err, fs.ErrNotExist) {
			return Entry{}, notFound(loc, name)
		}
		return Entry{}, unavailable("looking up "+loc.Path(name), false, err)
	}
	return entryOf(loc, name, st, mimeOf(p, name)), nil
}

// Exists reports whether name is a file in loc.
func (s *Store) Exists(ctx context.Context, loc Location, name string) (bool, error) {
	_, err := s.Stat(ctx, loc, name)
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// Delete removes name from loc; a missing file is KindNotFound.
func (s *Store) Delete(ctx context.Context, loc Location, name string) error {
	p, err := s.file(loc, name)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if db, err := s.database(ctx); err != nil {
		return err
	} else if db != nil {
		return s.dbDelete(ctx, db, loc, name)
	}
	// Only regular files are the store's: a folder or link someone put
	// there by hand is neither listed nor removed.
	st, err := os.Lstat(p)
	if err == nil && !st.Mode().IsRegular() || errors.Is(err, fs.ErrNotExist) {
		return notFound(loc, name)
	}
	if err := os.Remove(p); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return notFound(loc, name)
		}
		return unavailable("deleting "+loc.Path(name), true, err)
	}
	return nil
}

// entryOf builds an entry from a file's stat.
func entryOf(loc Location, name string, st fs.FileInfo, mimeType string) Entry {
	return Entry{
		Path:       loc.Path(name),
		Name:       name,
		Size:       st.Size(),
		MIMEType:   mimeType,
		ModifiedAt: st.ModTime().UTC().Truncate(time.Millisecond),
	}
}

// mimeOf returns the MIME type of the file at p named name, sniffing its
// first bytes only when the extension says nothing.
func mimeOf(p, name string) string {
	if t := MIMEByName(name); t != "" {
		return t
	}
	f, err := os.Open(p)
	if err != nil {
		return DetectMIME(name, nil)
	}
	defer f.Close()
	head := make([]byte, sniffBytes)
	n, _ := io.ReadFull(f, head)
	return DetectMIME(name, head[:n])
}

// formatSize renders a byte count for messages: "20 MiB", "1.5 KiB", "12 bytes".
func formatSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// errWriter remembers the error of its writer, so a failed copy can tell
// the store's disk failing from the content's source failing.
type errWriter struct {
	w   io.Writer
	err error
}

func (w *errWriter) Write(p []byte) (int, error) {
	n, err := w.w.Write(p)
	if err != nil {
		w.err = err
	}
	return n, err
}
