package resources

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

// Scheme reads the URLs of one scheme. The centre routes a URL by its
// scheme alone and hands over the whole URL: a scheme parses the rest
// itself (file-like schemes through ParseFileURL). Extensions add schemes
// with Centre.Register.
type Scheme interface {
	// Name is the scheme, lower-case, without "://" ("workspace").
	Name() string
	// Read reads req.URL. Errors the reader can act on are *Error.
	Read(ctx context.Context, c *Centre, req Request) (Result, error)
}

// Scope is who reads: the session and run a model's read belongs to, or a
// person at the command line.
type Scope struct {
	SessionID string
	RunID     string
	// Person marks a read by a person (`tavo read`): artifacts of every
	// session are readable unless SessionID narrows them.
	Person bool
}

// Request is one read.
type Request struct {
	URL   string
	Scope Scope
}

// Result is a read's outcome: *Text, *Meta or *Media.
type Result interface{ kind() string }

// Text is a page of text: `{"kind":"text","text","source","continue"?}`.
type Text struct {
	Kind     string    `json:"kind"`
	Text     string    `json:"text"`
	Source   SourcePos `json:"source"`
	Continue string    `json:"continue,omitempty"`
}

// SourcePos says where a page comes from and where it starts.
type SourcePos struct {
	URL    string `json:"url"`
	Offset int64  `json:"offset"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

// Meta is ?view=meta: what the resource is, without its bytes.
type Meta struct {
	Kind       string `json:"kind"`
	URL        string `json:"url"`
	Name       string `json:"name"`
	MediaType  string `json:"media_type"`
	Size       int64  `json:"size"`
	Lines      *int   `json:"lines,omitempty"`
	ModifiedAt string `json:"modified_at,omitempty"`
	SHA256     string `json:"sha256,omitempty"`
}

// Media is a resource that is not text: `{"kind":"media","media_type","url","bytes"}`.
type Media struct {
	Kind      string `json:"kind"`
	MediaType string `json:"media_type"`
	URL       string `json:"url"`
	Bytes     int64  `json:"bytes"`
	// Attached is the lifetime of the image in the model's next requests,
	// when the run shows images to its model (vision = true).
	Attached Lifetime `json:"attached,omitempty"`
	// Data are the bytes of an image read under WithMediaBytes.
	Data []byte `json:"-"`
}

func (*Text) kind() string  { return "text" }
func (*Meta) kind() string  { return "meta" }
func (*Media) kind() string { return "media" }

// PagedFromSource marks a page as already within the text budget and read
// from its own source: the one result exit never archives it again.
func (*Text) PagedFromSource() {}

// Centre routes resource URLs to schemes. One centre serves one run (or one
// `tavo read`); it is safe for concurrent use once its schemes are
// registered.
type Centre struct {
	schemes   map[string]Scheme
	pager     Pager
	artifacts ArtifactStore
	vision    VisionFunc
}

// New returns a centre with the artifact and asset schemes over arts (nil
// keeps artifacts in memory, for runs without a store) and no others.
func New(arts ArtifactStore) *Centre {
	if arts == nil {
		arts = NewMemoryArtifacts()
	}
	c := &Centre{schemes: map[string]Scheme{}, artifacts: arts}
	c.mustRegister(artifactScheme{kind: KindArtifact})
	c.mustRegister(artifactScheme{kind: KindAsset})
	return c
}

func (c *Centre) mustRegister(s Scheme) {
	if err := c.Register(s); err != nil {
		panic(err)
	}
}

// Register adds a scheme; a name already taken is an error.
func (c *Centre) Register(s Scheme) error {
	name := strings.ToLower(s.Name())
	if _, taken := c.schemes[name]; taken {
		return fmt.Errorf("resources: the scheme %q is registered twice", name)
	}
	c.schemes[name] = s
	return nil
}

// Schemes lists the registered schemes, sorted.
func (c *Centre) Schemes() []string {
	out := make([]string, 0, len(c.schemes))
	for n := range c.schemes {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Pager is the centre's pager, which remembers page ends across reads.
func (c *Centre) Pager() *Pager { return &c.pager }

// Artifacts is the centre's artifact store.
func (c *Centre) Artifacts() ArtifactStore { return c.artifacts }

// Read reads one URL through its scheme.
func (c *Centre) Read(ctx context.Context, req Request) (Result, error) {
	if len(req.URL) > MaxURLLength {
		return nil, invalidURL("a URL of at most 2048 bytes", short(req.URL), "the URL is %d bytes long; the most is %d", len(req.URL), MaxURLLength)
	}
	scheme, _, err := SplitScheme(req.URL)
	if err != nil {
		return nil, err
	}
	s, ok := c.schemes[scheme]
	if !ok {
		known := c.Schemes()
		for i, n := range known {
			known[i] = n + "://"
		}
		e := errorf(CodeInvalidArguments, "the scheme %q is not known here; known: %s", scheme+"://", strings.Join(known, ", "))
		e.Details = map[string]any{"path": "url", "expected": strings.Join(known, " | "), "actual": scheme + "://"}
		return nil, e
	}
	return s.Read(ctx, c, req)
}

// File is one opened file-like resource.
type File struct {
	// R reads the bytes; Size is their length.
	R    io.ReaderAt
	Size int64
	// Name is the resource's name for metadata (a file name, a title).
	Name      string
	MediaType string
	// ModTime is when it last changed; zero when unknown.
	ModTime time.Time
	// SHA256 is the digest when known without reading (artifacts).
	SHA256 string
	// Lines is the line count when known without reading.
	Lines int
	// Version tells two states of one path apart (size, time), so remembered
	// page ends are never used for changed content.
	Version string
	// Close releases the file; nil when nothing to release.
	Close func() error
}

func (f *File) close() {
	if f != nil && f.Close != nil {
		_ = f.Close()
	}
}

// Opener opens the path of a file-like scheme's URL for reader scope.
type Opener func(ctx context.Context, u *FileURL, scope Scope) (*File, error)

// FileScheme is a file-like scheme: line selectors, ?view=meta and offset
// continue URLs, pages read from the source itself.
func FileScheme(name string, open Opener) Scheme {
	return fileScheme{name: name, open: open}
}

type fileScheme struct {
	name string
	open Opener
}

func (s fileScheme) Name() string { return s.name }

func (s fileScheme) Read(ctx context.Context, c *Centre, req Request) (Result, error) {
	u, err := ParseFileURL(req.URL)
	if err != nil {
		return nil, err
	}
	f, err := s.open(ctx, u, req.Scope)
	if err != nil {
		return nil, err
	}
	defer f.close()
	return c.ReadFile(ctx, u, f)
}

// ReadFile answers u from an opened file: metadata, a media description or
// one page of text.
func (c *Centre) ReadFile(ctx context.Context, u *FileURL, f *File) (Result, error) {
	text := isTextType(f.MediaType)
	if u.HasQuestion {
		return c.answerQuestion(ctx, u, f)
	}
	if u.Meta {
		m := &Meta{Kind: "meta", URL: metaURL(u), Name: f.Name, MediaType: f.MediaType, Size: f.Size, SHA256: f.SHA256}
		if !f.ModTime.IsZero() {
			m.ModifiedAt = f.ModTime.UTC().Format(time.RFC3339)
		}
		if text {
			n := f.Lines
			if n == 0 && f.Size > 0 {
				var err error
				if n, err = countSourceLines(ctx, f); err != nil {
					return nil, err
				}
			}
			m.Lines = &n
		}
		return m, nil
	}
	if !text {
		if !u.Sel.All() || u.Offset > 0 {
			return nil, errorf(CodeUnsupportedMediaType, "%s is %s, not text: line selectors and offsets apply to text only", metaURL(u), f.MediaType)
		}
		m := &Media{Kind: "media", MediaType: f.MediaType, URL: metaURL(u), Bytes: f.Size}
		if IsImage(f.MediaType) && wantsMediaBytes(ctx) {
			var err error
			if m.Data, err = readAllMedia(f, u); err != nil {
				return nil, err
			}
		}
		return m, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	base := u.Base()
	// The page's JSON names the URL twice (source and continue); both count.
	b := DefaultBudget().Less(2*len(base) + noteOverhead)
	pg, err := c.pager.Page(f.R, f.Size, u.Scheme+"\x00"+u.Path+"\x00"+f.Version, u.Sel, u.Offset, b)
	if err != nil {
		return nil, sourceError(err)
	}
	t := &Text{Kind: "text", Text: pg.Text, Source: SourcePos{URL: base, Offset: pg.Start.Units, Line: pg.Start.Line, Column: pg.Start.Column}}
	if pg.More {
		t.Continue = u.WithOffset(pg.Next.Units)
	}
	return t, nil
}

// noteOverhead is the JSON around a page beside its text: keys, the
// position numbers, the offset of the continue URL.
const noteOverhead = 160

// metaURL is the URL without selector, offset or view: the resource.
func metaURL(u *FileURL) string { return u.Scheme + "://" + u.RawPath }

// sourceError keeps *Error as it is and hides anything else (an I/O error
// names host paths).
func sourceError(err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return errorf(CodeInternalError, "the resource could not be read")
}

// countSourceLines counts lines as the pager does.
func countSourceLines(ctx context.Context, f *File) (int, error) {
	sc := newScanner(f.R, f.Size, 0)
	n := 0
	last := byte('\n')
	for sc.ensure(1) {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		chunk := sc.buf[sc.i:sc.n]
		n += strings.Count(string(chunk), "\n")
		last = chunk[len(chunk)-1]
		sc.i = sc.n
	}
	if err := sc.failure(); err != nil {
		return 0, sourceError(err)
	}
	if f.Size > 0 && last != '\n' {
		n++
	}
	return n, nil
}

// isTextType reports whether a media type is read as text.
func isTextType(mt string) bool {
	mt, _, _ = strings.Cut(mt, ";")
	mt = strings.TrimSpace(strings.ToLower(mt))
	switch {
	case strings.HasPrefix(mt, "text/"), strings.HasSuffix(mt, "+json"), strings.HasSuffix(mt, "+xml"):
		return true
	}
	switch mt {
	case "application/json", "application/xml", "application/javascript", "application/x-ndjson",
		"application/toml", "application/yaml", "application/x-yaml", "application/x-sh", "application/sql":
		return true
	}
	return false
}

// Set registers s, replacing a scheme of the same name (a run's workspace
// replaces NoWorkspace). Call it before the centre is shared.
func (c *Centre) Set(s Scheme) {
	c.schemes[strings.ToLower(s.Name())] = s
}
