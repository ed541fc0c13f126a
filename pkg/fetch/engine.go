package fetch

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/tavo-cli/tavo/pkg/httpx"
)

// Engine fetches documents. The zero value works with the defaults of
// SPEC §6; set fields before the first Fetch and do not change them after.
// An Engine is safe for concurrent use.
type Engine struct {
	// Client sends the requests; nil uses a client with httpx.WebTimeouts. Its CheckRedirect and Jar are ignored: the
	// engine follows redirects itself so it can drop caller headers on a
	// cross-origin hop.
	Client *http.Client
	// Limits bound each fetch; zero fields take the defaults.
	Limits Limits
	// Timeout bounds a whole fetch: connecting, redirects, body and
	// conversion. Zero means DefaultTimeout.
	Timeout time.Duration
	// UserAgent is sent unless the caller gives one; empty means "tavo".
	UserAgent string
	// Auditor receives one record per fetch; nil keeps no audit.
	Auditor Auditor
	// AuditHeaders says whether the audit keeps credential header values;
	// the zero value redacts them.
	AuditHeaders AuditHeaders
	// Now is the clock for audit times; nil means time.Now.
	Now func() time.Time

	once   sync.Once
	client *http.Client
	conv   *Converter
}

// Request is one fetch.
type Request struct {
	// URL is the http or https URL to GET.
	URL string
	// Headers are the caller's headers, sent as given on the first request
	// and on same-origin redirects, dropped on a cross-origin redirect.
	Headers []Header
	// Extract chooses what part of an HTML page becomes Markdown.
	Extract Extract
}

// Document is a fetched resource as Markdown.
type Document struct {
	// URL is the URL that was asked for.
	URL string
	// FinalURL is the URL that answered, after redirects.
	FinalURL string
	// Status is the HTTP status of the final response.
	Status int
	// MIME is the media type of the body, without parameters.
	MIME string
	// Title is the page title, when the format has one.
	Title string
	// Markdown is the converted content.
	Markdown string
	// Warnings are non-fatal remarks, in the order they arose.
	Warnings []Warning
	// Bytes is the size of the body after decompression.
	Bytes int64
}

func (e *Engine) init() {
	e.once.Do(func() {
		c := &http.Client{}
		if e.Client != nil {
			copied := *e.Client
			c = &copied
		} else {
			// Per-phase bounds under the whole-fetch Timeout: a server that
			// accepts and says nothing, or stops mid-page, fails with a
			// message naming the phase.
			t := httpx.NewTransport(httpx.WebTimeouts)
			t.DisableCompression = true
			c.Transport = httpx.WithTimeouts(t, httpx.WebTimeouts)
		}
		c.Jar = nil
		c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		e.client = c
		e.conv = NewConverter()
		e.conv.MaxMarkdownBytes = e.Limits.withDefaults().MarkdownBytes
	})
}

func (e *Engine) now() time.Time {
	if e.Now != nil {
		return e.Now()
	}
	return time.Now()
}

// Fetch GETs req.URL and converts the body to Markdown. Every failure is an
// *Error. When an Auditor is set, one record is written whatever the outcome.
func (e *Engine) Fetch(ctx context.Context, req Request) (*Document, error) {
	e.init()
	start := e.now()
	st := &fetchState{}
	doc, err := e.fetch(ctx, req, st)
	if e.Auditor != nil {
		rec := auditRecord(start, e.now().Sub(start), req, e.AuditHeaders, st, doc, err)
		// A cancelled fetch is audited all the same.
		if aerr := e.Auditor.RecordFetch(context.WithoutCancel(ctx), rec); aerr != nil && doc != nil {
			doc.Warnings = append(doc.Warnings, Warning{Code: WarnAuditFailed, Message: "the fetch could not be written to the audit log: " + aerr.Error()})
		}
	}
	if err != nil {
		return nil, err
	}
	return doc, nil
}

// fetchState is what the audit may learn about a fetch, filled in as it goes.
type fetchState struct {
	finalURL string
	status   int
	mime     string
	bytes    int64
}

func (e *Engine) fetch(ctx context.Context, req Request, st *fetchState) (*Document, error) {
	start, err := parseTarget(req.URL)
	if err != nil {
		return nil, err
	}
	if err := validateHeaders(req.Headers); err != nil {
		return nil, err
	}
	if _, err := ParseExtract(string(req.Extract)); err != nil {
		return nil, err
	}
	timeout := e.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, errFetchTimeout)
	defer cancel()

	limits := e.Limits.withDefaults()
	doc, err := e.get(ctx, start, req, limits, st)
	if err != nil {
		return nil, contextError(ctx, err, timeout)
	}
	if err := ctx.Err(); err != nil {
		return nil, contextError(ctx, err, timeout)
	}
	return doc, nil
}

var errFetchTimeout = errors.New("fetch timeout")

// contextError turns a failure caused by the deadline or a cancellation
// into the matching code; other errors pass through.
func contextError(ctx context.Context, err error, timeout time.Duration) error {
	if ctx.Err() == nil {
		return err
	}
	// A limit or media-type verdict reached before the deadline stands.
	var fe *Error
	if errors.As(err, &fe) && fe.Code != CodeUpstreamError && fe.Code != CodeInternalError {
		return err
	}
	if errors.Is(context.Cause(ctx), errFetchTimeout) {
		return wrapf(CodeTimeout, err, "the fetch did not finish within %s", timeout)
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return wrapf(CodeTimeout, err, "the fetch ran out of time")
	}
	return wrapf(CodeCancelled, context.Canceled, "the fetch was cancelled")
}
