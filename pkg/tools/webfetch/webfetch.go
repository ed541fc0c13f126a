// Package webfetch is the tavo_web_fetch tool: the model reads one web page
// or HTTP(S) document as Markdown, page by page (SPEC §5, §6). It adapts
// pkg/fetch to the model.
//
// Error codes: invalid_arguments for a missing or malformed URL, bad headers
// or a cursor that was altered, cut short or minted by another run;
// resource_not_found for a cursor whose snapshot has expired or was evicted
// from the run's cache (fetch the URL again); limit_exceeded naming the
// limit; unsupported_media_type naming the media type; upstream_error for
// HTTP ≥ 400, unreachable hosts, redirect loops and corrupt bodies; timeout
// when the fetch ran past its 30 s.
package webfetch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"

	"github.com/tavo-cli/tavo/pkg/fetch"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/resources"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// Name is the model-facing name (and ID) of the tool.
const Name = "tavo_web_fetch"

// Fetcher fetches one document; *fetch.Engine is the one tavo uses.
type Fetcher interface {
	Fetch(ctx context.Context, req fetch.Request) (*fetch.Document, error)
}

// budgetMargin leaves room in the per-result budget for the envelope.
const budgetMargin = 1 << 10

// New returns tavo_web_fetch over f. store keeps the run's snapshots so a
// cursor reads on without downloading again; give each run its own (nil
// makes a fresh fetch.MemoryStore of 24 MiB).
func New(f Fetcher, store fetch.Store) tools.Tool {
	return NewWith(f, store, Options{})
}

// Options are what seed 004's form of the tool adds (SPEC §16).
type Options struct {
	// Extractor answers a prompt from a long page; nil returns the page as
	// usual, with a fetch_model_not_configured warning.
	Extractor *Extractor
	// Threshold is fetch.extract_threshold: with a prompt, a page whose
	// Markdown passes it goes to the Extractor. Zero means
	// DefaultExtractThreshold.
	Threshold int
}

// NewWith is New with Options.
func NewWith(f Fetcher, store fetch.Store, o Options) tools.Tool {
	if store == nil {
		store = fetch.NewMemoryStore(0)
	}
	if o.Threshold <= 0 {
		o.Threshold = DefaultExtractThreshold
	}
	return webFetch{f: f, pager: fetch.Pager{Store: store, Fits: fitsBudget}, opts: o}
}

type webFetch struct {
	f     Fetcher
	pager fetch.Pager
	opts  Options
}

const description = "Read one web page or HTTP(S) document (GET) as Markdown (HTML, text, JSON, XML; no " +
	"JavaScript, PDFs or images). headers are sent as given and dropped, with a warning, on a redirect to " +
	`another origin. Long documents come in ~24 KiB pages: while next_cursor is set, call again with only {"cursor": ` +
	"next_cursor}. Returns {url, final_url, status, mime, title, markdown, next_cursor, truncated, warnings}; " +
	"javascript_required means it needs a browser. With prompt, a long page is answered for you: {url, title, " +
	"answer, source_bytes, model, artifact} (artifact: the whole page, for tavo_read)."

// Schema is the JSON Schema of the arguments: {url, headers?} or {cursor}.
const Schema = `{
  "type": "object",
  "properties": {
    "url": {"type": "string", "minLength": 1, "maxLength": 2000, "description": "The http(s) URL to read."},
    "prompt": {"type": "string", "minLength": 1, "maxLength": 4000, "description": "A question about the page."},
    "headers": {"type": "object", "additionalProperties": {"type": "string"}, "description": "Request headers, name to value."},
    "cursor": {"type": "string", "minLength": 1, "description": "next_cursor of an earlier call; wins over url."}
  },
  "additionalProperties": false
}`

// Spec describes tavo_web_fetch: built-in and resident, so it is visible from
// the first request.
func (webFetch) Spec() tools.Spec {
	return tools.Spec{
		Name:        Name,
		ID:          Name,
		Description: description,
		Parameters:  json.RawMessage(Schema),
		Resident:    true,
		Source:      tools.SourceBuiltin,
	}
}

type args struct {
	URL     string            `json:"url"`
	Prompt  string            `json:"prompt"`
	Headers map[string]string `json:"headers"`
	Cursor  string            `json:"cursor"`
}

// Run fetches a URL (first page) or reads the page a cursor points at. A
// cursor wins over a URL given with it and never falls back to it.
func (w webFetch) Run(ctx context.Context, call *tools.Call) (any, error) {
	var a args
	if err := tools.DecodeArgs(call.Args, &a); err != nil {
		// Our own wording: the decoder's names Go types.
		return nil, tools.Errorf(tools.CodeInvalidArguments, `the arguments must be {"url": …, "headers"?: {…}} or {"cursor": …}`)
	}
	if a.Cursor != "" {
		if a.Prompt != "" {
			return nil, &tools.Error{Code: tools.CodeInvalidArguments, Message: "prompt goes with url, not with cursor: a cursor reads on the page already returned",
				Details: map[string]any{"path": "prompt"}}
		}
		r, err := w.pager.Next(ctx, a.Cursor)
		if err != nil {
			return nil, toolError(ctx, err)
		}
		return r, nil
	}
	if a.URL == "" {
		return nil, &tools.Error{Code: tools.CodeInvalidArguments, Message: "give url to fetch a document, or cursor to read its next page",
			Details: map[string]any{"path": "url", "expected": "a non-empty string", "actualType": "missing"}}
	}
	if err := fetch.CheckURLLength(a.URL); err != nil {
		return nil, &tools.Error{Code: tools.CodeInvalidArguments, Message: err.(*fetch.Error).Message,
			Details: map[string]any{"path": "url", "limit": fetch.MaxURLLength}}
	}
	doc, err := w.f.Fetch(ctx, fetch.Request{URL: a.URL, Headers: fetch.HeadersFromMap(a.Headers)})
	if err != nil {
		return nil, toolError(ctx, err)
	}
	long := a.Prompt != "" && len(doc.Markdown) > w.opts.Threshold
	if long && w.opts.Extractor != nil {
		return w.answer(ctx, call.Env, doc, a.Prompt)
	}
	r, err := w.pager.First(ctx, doc)
	if err != nil {
		return nil, toolError(ctx, err)
	}
	if long {
		r.Warnings = append(r.Warnings, fetch.Warning{Code: WarnFetchModelMissing,
			Message: "the page is long, but no fetch_model is configured to answer the prompt from it, so the page is returned; read it page by page"})
	}
	return r, nil
}

// answer has the fetch model answer prompt from doc, counting its usage in
// the run's, and keeps the page's Markdown as an artifact of the run so
// the model can read what the answer left out (SPEC §16).
func (w webFetch) answer(ctx context.Context, env *tools.Env, doc *fetch.Document, prompt string) (any, error) {
	x := *w.opts.Extractor
	own := x.OnUsage
	x.OnUsage = func(u providers.Usage) {
		if own != nil {
			own(u)
		}
		env.AddUsage(u)
	}
	ans, err := x.Ask(ctx, doc, prompt)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, tools.Errorf(tools.CodeUpstreamError, "the fetch model could not answer from the page: "+err.Error())
	}
	if env == nil || env.Catalog == nil || env.Catalog.Resources() == nil {
		// No resource centre (a catalog built for tests): nowhere to keep it.
		return ans, nil
	}
	scope := resources.Scope{SessionID: env.SessionID, RunID: env.RunID}
	t, err := env.Catalog.Resources().Archive(ctx, scope, Name, "text/markdown; charset=utf-8", []byte(doc.Markdown))
	if err != nil {
		// The answer stands without it; the model can still fetch the page.
		ans.Warnings = append(ans.Warnings, "the page could not be kept as an artifact: "+err.Error())
		return ans, nil
	}
	ans.Artifact = t.Artifact
	return ans, nil
}

// WarnFetchModelMissing is the warning of a prompt over a long page when the
// profile names no fetch_model.
const WarnFetchModelMissing = "fetch_model_not_configured"

// fitsBudget reports whether a page, as the envelope will encode it, keeps
// to the text budget of SPEC §11, so the one exit never archives a page the
// tool already cut.
func fitsBudget(r *fetch.Result) bool {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return false
	}
	return resources.DefaultBudget().Less(budgetMargin).Fits(buf.String())
}

// toolError maps fetch failures onto the envelope's codes, which fetch
// shares. When the call's own context ended, its error goes back unchanged
// so the executor reports cancellation or its timeout.
func toolError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var fe *fetch.Error
	if !errors.As(err, &fe) || fe.Code == fetch.CodeInternalError {
		return tools.Errorf(tools.CodeInternalError, "the fetch failed unexpectedly")
	}
	te := &tools.Error{Code: fe.Code, Message: fe.Message}
	if fe.Limit != "" {
		te.Details = map[string]any{"limit": fe.Limit, "max": fe.Max}
	}
	return te
}
