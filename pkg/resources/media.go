package resources

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/tavo-cli/tavo/pkg/store"
)

// Error codes of images (SPEC §11).
const (
	CodeEmptyQuestion       = "empty_question"
	CodeVisionNotConfigured = "vision_not_configured"
	CodeNotAnImage          = "not_an_image"
)

// MaxMediaBytes bounds the bytes of one image or audio clip that is sent
// to a model (the next request, or a question to the vision model).
const MaxMediaBytes = 20 << 20

// Lifetime is how long an image stays in the requests of a run (once,
// recent) or of its session (retain).
type Lifetime string

// The lifetimes of SPEC §11; LifetimeOnce is the default.
const (
	// LifetimeOnce: the next request only.
	LifetimeOnce Lifetime = "once"
	// LifetimeRecent: the next RecentRequests requests.
	LifetimeRecent Lifetime = "recent"
	// LifetimeRetain: every later request of the session: the session
	// keeps it when the run ends (pkg/session), and later runs send it.
	LifetimeRetain Lifetime = "retain"
)

// RecentRequests is how many requests a LifetimeRecent image is sent with.
const RecentRequests = 3

// ParseLifetime reads a lifetime argument: "" is LifetimeOnce; another
// unknown value is invalid_attachment_lifetime.
func ParseLifetime(s string) (Lifetime, error) {
	switch l := Lifetime(s); l {
	case "":
		return LifetimeOnce, nil
	case LifetimeOnce, LifetimeRecent, LifetimeRetain:
		return l, nil
	}
	e := errorf(CodeInvalidAttachmentLifetime, "lifetime %q is not known; use once, recent or retain", s)
	e.Details = map[string]any{"path": "lifetime", "expected": "once | recent | retain", "actual": s}
	return "", e
}

// AttachmentNote is the text that stands for media in a result or prompt:
// `[attachment: URL; media_type; N bytes]`.
func AttachmentNote(url, mediaType string, size int64) string {
	return fmt.Sprintf("[attachment: %s; %s; %d bytes]", url, mediaType, size)
}

// IsImage reports whether a media type is an image a model can be shown.
func IsImage(mediaType string) bool {
	mt, _, _ := strings.Cut(mediaType, ";")
	return strings.HasPrefix(strings.TrimSpace(strings.ToLower(mt)), "image/")
}

// Attachment is an image a request carries beside the conversation.
type Attachment struct {
	URL       string
	MediaType string
	Data      []byte
	// Kept is the id of the session's artifact or asset that holds Data
	// for later runs (a retained image brought back from an earlier run);
	// "" while nothing of the session keeps these bytes.
	Kept string
}

// Attachments are the images a run's next requests carry, for a model
// whose profile says vision = true. Tools add them (tavo_read of an image,
// an MCP image result); the runner sends them and counts the requests
// that carried them. Safe for concurrent use.
type Attachments struct {
	mu    sync.Mutex
	items []*attachment
}

type attachment struct {
	Attachment
	left int // requests still to carry it; -1 is every one (retain)
}

// NewAttachments returns an empty set.
func NewAttachments() *Attachments { return &Attachments{} }

// Add queues an image for the next requests with lifetime l. The same URL
// again replaces the earlier one (its lifetime starts over).
func (a *Attachments) Add(att Attachment, l Lifetime) {
	left := 1
	switch l {
	case LifetimeRecent:
		left = RecentRequests
	case LifetimeRetain:
		left = -1
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for i, it := range a.items {
		if it.URL == att.URL {
			a.items = append(a.items[:i], a.items[i+1:]...)
			break
		}
	}
	a.items = append(a.items, &attachment{Attachment: att, left: left})
}

// Pending is what the next request carries, oldest first.
func (a *Attachments) Pending() []Attachment {
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]Attachment, 0, len(a.items))
	for _, it := range a.items {
		out = append(out, it.Attachment)
	}
	return out
}

// Sent records that a request carrying Pending was answered: a once image
// is gone, a recent one has one request fewer to go. SPEC §11 consumes an
// image when the response is stored; the runner stores a round's messages
// before its next request, and these lifetimes end with the run, so
// counting at the answer consumes exactly as storing would.
func (a *Attachments) Sent() {
	if a == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	kept := a.items[:0]
	for _, it := range a.items {
		if it.left > 0 {
			it.left--
		}
		if it.left != 0 {
			kept = append(kept, it)
		}
	}
	a.items = kept
}

// Retained is what is sent with lifetime retain, oldest first: what the
// session keeps for its later runs.
func (a *Attachments) Retained() []Attachment {
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []Attachment
	for _, it := range a.items {
		if it.left < 0 {
			out = append(out, it.Attachment)
		}
	}
	return out
}

// VisionFunc answers a question about an image (?question=): the profile's
// vision_model behind it. An error is reported as upstream_error.
type VisionFunc func(ctx context.Context, question, mediaType string, image []byte) (string, error)

// SetVision lets ?question= ask v; nil leaves it vision_not_configured.
// Call it before the centre is shared.
func (c *Centre) SetVision(v VisionFunc) { c.vision = v }

// mediaKey marks a context whose reads of images keep the bytes
// (Media.Data), so the reader can show them to a model.
type mediaKey struct{}

// WithMediaBytes returns ctx under which reads of images keep their bytes
// in Media.Data (at most MaxMediaBytes).
func WithMediaBytes(ctx context.Context) context.Context {
	return context.WithValue(ctx, mediaKey{}, true)
}

func wantsMediaBytes(ctx context.Context) bool {
	v, _ := ctx.Value(mediaKey{}).(bool)
	return v
}

// readAllMedia reads a file's bytes for a model, refusing what is too big.
func readAllMedia(f *File, u *FileURL) ([]byte, error) {
	if f.Size > MaxMediaBytes {
		return nil, errorf(CodeUnsupportedMediaType, "%s is %d bytes; images over %d MiB are not sent to a model", metaURL(u), f.Size, MaxMediaBytes>>20)
	}
	b := make([]byte, f.Size)
	if _, err := f.R.ReadAt(b, 0); err != nil && err != io.EOF {
		return nil, sourceError(err)
	}
	return b, nil
}

// answerQuestion is ?question=: the §11 codes in their order of
// precedence, then the vision model's answer as a page of text.
func (c *Centre) answerQuestion(ctx context.Context, u *FileURL, f *File) (Result, error) {
	switch {
	case strings.TrimSpace(u.Question) == "":
		return nil, errorf(CodeEmptyQuestion, "?question= is empty; ask something about the image")
	case !IsImage(f.MediaType):
		return nil, errorf(CodeNotAnImage, "%s is %s; ?question= applies to images only", metaURL(u), f.MediaType)
	case c.vision == nil:
		return nil, errorf(CodeVisionNotConfigured, "no vision model is configured to answer questions about images (profile key vision_model)")
	}
	img, err := readAllMedia(f, u)
	if err != nil {
		return nil, err
	}
	answer, err := c.vision(ctx, u.Question, f.MediaType, img)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, errorf(CodeUpstreamError, "the vision model did not answer: %s", oneLine(err.Error(), 300))
	}
	return &Text{Kind: "text", Text: answer, Source: SourcePos{URL: metaURL(u), Line: 1, Column: 1}}, nil
}

func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > max {
		s = s[:max] + "…"
	}
	return s
}

// StoreMedia keeps an image or audio clip a tool produced (an MCP result)
// as an artifact of scope's session and run, and returns its URL and the
// note that stands for it in the text.
func (c *Centre) StoreMedia(ctx context.Context, scope Scope, name, mediaType string, data []byte) (url, note string, err error) {
	a, err := c.artifacts.CreateArtifact(ctx, store.Artifact{Kind: KindArtifact, SessionID: scope.SessionID, RunID: scope.RunID,
		Name: name, MediaType: mediaType}, data)
	if err != nil {
		return "", "", err
	}
	url = KindArtifact + "://" + a.ID
	return url, AttachmentNote(url, a.MediaType, a.Size), nil
}

type attachmentsKey struct{}

// WithAttachments returns ctx carrying a run's attachments, so tools that
// produce images (tavo_read, MCP results) can queue them for the next
// request. A run without vision carries none.
func WithAttachments(ctx context.Context, a *Attachments) context.Context {
	return context.WithValue(ctx, attachmentsKey{}, a)
}

// AttachmentsFrom returns the run's attachments, or nil when the model
// is not shown images.
func AttachmentsFrom(ctx context.Context) *Attachments {
	a, _ := ctx.Value(attachmentsKey{}).(*Attachments)
	return a
}

// ToolMedia keeps an image or audio block a tool returned (an MCP result)
// as an artifact of scope's session and run and returns the note that
// stands for it in the result. When the run shows images to its model
// (ctx carries Attachments), an image also goes into the next request.
func (c *Centre) ToolMedia(ctx context.Context, scope Scope, tool, mediaType string, data []byte) (string, error) {
	if mediaType == "" {
		mediaType = "application/octet-stream"
	}
	url, note, err := c.StoreMedia(ctx, scope, tool, mediaType, data)
	if err != nil {
		return "", err
	}
	if att := AttachmentsFrom(ctx); att != nil && IsImage(mediaType) && len(data) <= MaxMediaBytes {
		att.Add(Attachment{URL: url, MediaType: mediaType, Data: data}, LifetimeOnce)
	}
	return note, nil
}
