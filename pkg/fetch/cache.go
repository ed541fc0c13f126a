package fetch

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// The page cache (SPEC §16): a fetched document is kept for a while so the
// same request, made again by the model or by a person, does not download
// the page again. Its files live in the data directory, so two data
// directories never share what they fetched.

// Cache defaults.
const (
	// DefaultCacheTTL is how long a fetched page is served from the cache.
	DefaultCacheTTL = 30 * time.Minute
	// DefaultCacheBytes bounds the cache's files together; the oldest go
	// first when a new page would pass it.
	DefaultCacheBytes = 64 << 20
)

// cacheExt names cached pages.
const cacheExt = ".page"

// Cache keeps fetched documents as private files (0600 in a 0700
// directory), keyed by the request: the URL exactly as given, the extraction
// mode, and every header's name (case-insensitive) and value. A request
// with other headers (another Authorization, say) never reads a page
// fetched with these. Expired files are removed, and the directory kept
// under MaxBytes, whenever a page is put. A Cache is safe for concurrent
// use, and several processes may share its directory.
type Cache struct {
	dir string
	// TTL is how long a page is served; zero means DefaultCacheTTL.
	TTL time.Duration
	// MaxBytes bounds the files together; zero means DefaultCacheBytes.
	MaxBytes int64
	// Now is the clock; nil means time.Now.
	Now func() time.Time

	mu    sync.Mutex // orders this process's sweeps
	ready bool       // dir exists and is private; guarded by mu
}

// OpenCache returns the cache in dir, for example <data-dir>/cache/pages.
// Nothing is touched on disk until the first Put creates the directory, so
// a run that never fetches costs nothing.
func OpenCache(dir string) (*Cache, error) {
	if dir == "" {
		return nil, storeError("open the page cache", os.ErrInvalid)
	}
	return &Cache{dir: dir}, nil
}

// prepare creates the directory, private, once per Cache; mu is held.
func (c *Cache) prepare() error {
	if c.ready {
		return nil
	}
	if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return storeError("create the page cache directory", err)
	}
	// MkdirAll leaves an existing directory as it was; the cache holds
	// fetched pages, so it must be the user's alone.
	if err := os.Chmod(c.dir, 0o700); err != nil {
		return storeError("make the page cache directory private", err)
	}
	c.ready = true
	return nil
}

func (c *Cache) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func (c *Cache) ttl() time.Duration {
	if c.TTL > 0 {
		return c.TTL
	}
	return DefaultCacheTTL
}

func (c *Cache) maxBytes() int64 {
	if c.MaxBytes > 0 {
		return c.MaxBytes
	}
	return DefaultCacheBytes
}

// cacheKey names the file of a request: a hash, so neither the URL nor a
// header value appears in a file name.
func cacheKey(req Request) string {
	h := sha256.New()
	write := func(s string) {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	write("v1")
	write(req.URL)
	write(string(req.Extract))
	hs := make([]string, len(req.Headers))
	for i, hd := range req.Headers {
		hs[i] = strings.ToLower(hd.Name) + "\x00" + hd.Value
	}
	// Header order does not change what a server answers.
	sort.Strings(hs)
	for _, s := range hs {
		write(s)
	}
	return hex.EncodeToString(h.Sum(nil))
}

type cachedPage struct {
	Version  int       `json:"v"`
	Expires  time.Time `json:"expires"`
	Document *Document `json:"document"`
}

// Get returns the cached document of req, or nil when there is none or it
// has expired. A damaged file is a miss.
func (c *Cache) Get(req Request) *Document {
	data, err := os.ReadFile(filepath.Join(c.dir, cacheKey(req)+cacheExt))
	if err != nil {
		return nil
	}
	var p cachedPage
	if json.Unmarshal(data, &p) != nil || p.Version != 1 || p.Document == nil || !c.now().Before(p.Expires) {
		return nil
	}
	return p.Document
}

// Put stores doc as the answer to req, replacing an older copy. A document
// larger than the whole cache is not kept.
func (c *Cache) Put(req Request, doc *Document) error {
	data, err := json.Marshal(cachedPage{Version: 1, Expires: c.now().Add(c.ttl()), Document: doc})
	if err != nil {
		return storeError("encode the cached page", err)
	}
	if int64(len(data)) > c.maxBytes() {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.prepare(); err != nil {
		return err
	}
	c.sweep(int64(len(data)))
	tmp, err := os.CreateTemp(c.dir, ".tmp-*")
	if err != nil {
		return storeError("write the cached page", err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr != nil || cerr != nil {
		_ = os.Remove(tmp.Name())
		return storeError("write the cached page", firstErr(werr, cerr))
	}
	// CreateTemp makes the file 0600 already; a rename keeps it so.
	if err := os.Rename(tmp.Name(), filepath.Join(c.dir, cacheKey(req)+cacheExt)); err != nil {
		_ = os.Remove(tmp.Name())
		return storeError("write the cached page", err)
	}
	return nil
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// sweep removes expired pages (by modification time: a page's file is
// written once), then the oldest until adding more bytes fits MaxBytes.
func (c *Cache) sweep(more int64) {
	ents, err := os.ReadDir(c.dir)
	if err != nil {
		return
	}
	type file struct {
		path string
		mod  time.Time
		size int64
	}
	var files []file
	var total int64
	cutoff := c.now().Add(-c.ttl())
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), cacheExt) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		p := filepath.Join(c.dir, e.Name())
		if info.ModTime().Before(cutoff) {
			_ = os.Remove(p)
			continue
		}
		files = append(files, file{p, info.ModTime(), info.Size()})
		total += info.Size()
	}
	sort.Slice(files, func(i, j int) bool { return files[i].mod.Before(files[j].mod) })
	for _, f := range files {
		if total+more <= c.maxBytes() {
			break
		}
		_ = os.Remove(f.path)
		total -= f.size
	}
}

// DocumentFetcher fetches one document; *Engine is one.
type DocumentFetcher interface {
	Fetch(ctx context.Context, req Request) (*Document, error)
}

// CachedFetcher answers from Cache when it can and fetches (and caches)
// otherwise. A nil Cache fetches every time. A cache that cannot be written
// does not fail the fetch.
type CachedFetcher struct {
	Fetcher DocumentFetcher
	Cache   *Cache
}

// Fetch returns req's document, from the cache when a fresh copy is there.
// A URL longer than MaxURLLength is refused first.
func (f CachedFetcher) Fetch(ctx context.Context, req Request) (*Document, error) {
	if err := CheckURLLength(req.URL); err != nil {
		return nil, err
	}
	if f.Cache != nil {
		if doc := f.Cache.Get(req); doc != nil {
			return doc, nil
		}
	}
	doc, err := f.Fetcher.Fetch(ctx, req)
	if err != nil || f.Cache == nil {
		return doc, err
	}
	_ = f.Cache.Put(req, doc)
	return doc, nil
}

// MaxURLLength is the longest URL tavo fetches, in characters (SPEC §16): a
// longer one is almost always a mistake or data smuggled in a query, and
// many servers refuse it anyway.
const MaxURLLength = 2000

// CheckURLLength refuses a URL longer than MaxURLLength with an
// invalid_arguments *Error.
func CheckURLLength(url string) error {
	if n := utf8.RuneCountInString(url); n > MaxURLLength {
		return errorf(CodeInvalidArguments, "the URL is %d characters long; tavo fetches URLs of at most %d", n, MaxURLLength)
	}
	return nil
}
