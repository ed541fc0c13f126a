package cmd

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/fetch"
)

// FetchOptions are the flags of `tavo fetch`.
type FetchOptions struct {
	Factory *Factory
	Ctx     context.Context
	// URL is the page to fetch; empty when a cursor is given alone.
	URL     string
	Headers []string
	Cursor  string
	Paged   bool
	Extract string
	// AuditHeaders is redacted (the default) or full: whether the audit log
	// keeps credential header values.
	AuditHeaders string
	// NoCache downloads the page even when the page cache holds a fresh
	// copy (and does not store the result).
	NoCache bool
}

// NewCmdFetch builds `tavo fetch`; runF, when not nil, runs instead of
// fetchRun (for tests).
func NewCmdFetch(f *Factory, runF func(*FetchOptions) error) *cobra.Command {
	o := &FetchOptions{Factory: f}
	c := &cobra.Command{
		Use:   "fetch URL",
		Short: "Fetch a web page as Markdown",
		Long: `Fetch one HTTP(S) URL and print it as Markdown: HTML, Markdown, plain text, JSON
(pretty, fenced) and XML. No JavaScript runs; a page that needs it gives what its
static HTML holds, with a javascript_required warning.

By default the whole document is printed. --paged prints only the first page of
about 24 KiB, like the tavo_web_fetch tool, with its next_cursor (in -o json, or
as a hint on stderr); --cursor C prints the next page from the snapshot kept on
disk for 30 minutes, without downloading again. -o json prints
{url, final_url, status, mime, title, markdown, next_cursor, truncated, warnings}.

A fetched page is cached for 30 minutes in the data directory (private files),
keyed by the URL, --extract and every header's name and value, so the same
request again, by a person or a model, is answered without downloading;
--no-cache always downloads (and caches nothing). URLs longer than 2,000
characters are refused (exit 2).

Each download is recorded in the audit log (tavo logs list) with the URL and the
header names; the values of credential headers (Authorization,
Proxy-Authorization, Cookie, X-Api-Key and any name containing token, key or
secret) are kept as [redacted] unless --audit-headers full is given.

Exit status: 0 on success, 1 with one line on stderr when the fetch failed, 2 on
a usage error.`,
		Example: `  tavo fetch https://go.dev/doc/effective_go | less
  tavo fetch -o json --jq .title https://example.com
  tavo fetch -H "Authorization: Bearer $TOKEN" https://api.example.com/v1/items
  tavo fetch --paged https://example.com/long; tavo fetch --cursor CURSOR`,
		Args: func(cmd *cobra.Command, args []string) error {
			if o.Cursor != "" {
				return cobra.MaximumNArgs(1)(cmd, args)
			}
			return cobra.ExactArgs(1)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Ctx, o.URL = cmd.Context(), argOr(args, "")
			return runOr(runF, fetchRun, o)
		},
	}
	fl := c.Flags()
	fl.StringArrayVarP(&o.Headers, "header", "H", nil, "request header 'Key: Value' (repeatable)")
	fl.StringVar(&o.Cursor, "cursor", "", "print the page this cursor points to (a URL given with it is ignored)")
	fl.BoolVar(&o.Paged, "paged", false, "print only the first page, with its next_cursor")
	fl.StringVar(&o.Extract, "extract", "auto", "auto|main|full: main keeps the main content, full the whole page")
	fl.StringVar(&o.AuditHeaders, "audit-headers", "redacted", "redacted|full: full keeps credential header values in the audit log")
	fl.BoolVar(&o.NoCache, "no-cache", false, "download even when a fresh copy is cached, and cache nothing")
	_ = c.RegisterFlagCompletionFunc("extract", completeExtract)
	return c
}

func fetchRun(o *FetchOptions) error {
	f := o.Factory
	out, err := textOutput(f)
	if err != nil {
		return err
	}
	mode, err := fetch.ParseExtract(o.Extract)
	if err != nil {
		return usageError(err)
	}
	auditMode, err := fetch.ParseAuditHeaders(o.AuditHeaders)
	if err != nil {
		return usageError(err)
	}
	var headers []fetch.Header
	for _, h := range o.Headers {
		hd, err := fetch.ParseHeader(h)
		if err != nil {
			return usageError(err)
		}
		headers = append(headers, hd)
	}
	ctx, stop := signalContext(o.Ctx)
	defer stop()

	var res *fetch.Result
	if o.Cursor != "" || o.Paged {
		ds, err := fetch.OpenDiskStore(filepath.Join(f.DataDirectory(), "cache", "fetch"))
		if err != nil {
			return err
		}
		pager := fetch.Pager{Store: ds}
		if o.Cursor != "" {
			// A cursor wins over a URL given with it (SPEC §6).
			res, err = pager.Next(ctx, o.Cursor)
		} else {
			var doc *fetch.Document
			if doc, err = fetchDocument(ctx, f, fetch.Request{URL: o.URL, Headers: headers, Extract: mode}, auditMode, o.NoCache); err == nil {
				res, err = pager.First(ctx, doc)
			}
		}
		if err != nil {
			return fetchError(err)
		}
	} else {
		doc, err := fetchDocument(ctx, f, fetch.Request{URL: o.URL, Headers: headers, Extract: mode}, auditMode, o.NoCache)
		if err != nil {
			return fetchError(err)
		}
		res = doc.Result()
	}
	for _, w := range res.Warnings {
		warn(f, w.Code, w.Message)
	}
	if out.Structured() {
		return out.WriteValue(res)
	}
	md := res.Markdown
	if !strings.HasSuffix(md, "\n") {
		md += "\n"
	}
	if _, err := fmt.Fprint(f.IO.Out, md); err != nil {
		return err
	}
	if res.NextCursor != "" && !f.Quiet {
		fmt.Fprintf(f.IO.ErrOut, "tavo: more: tavo fetch --cursor %s\n", res.NextCursor)
	}
	return nil
}

// fetchDocument downloads and converts one page, with a spinner on a
// terminal, or takes it from the page cache unless noCache.
func fetchDocument(ctx context.Context, f *Factory, req fetch.Request, audit fetch.AuditHeaders, noCache bool) (*fetch.Document, error) {
	stopSpinner := f.IO.StartSpinner("fetching")
	defer stopSpinner()
	eng := fetchEngine(f)
	eng.AuditHeaders = audit
	cf := fetch.CachedFetcher{Fetcher: eng}
	if !noCache {
		cf.Cache = pageCache(f)
	}
	return cf.Fetch(ctx, req)
}

// pageCache opens the data directory's page cache; nil (fetch without it)
// when it cannot be opened: a cache is never a reason to fail.
func pageCache(f *Factory) *fetch.Cache {
	c, err := fetch.OpenCache(filepath.Join(f.DataDirectory(), "cache", "pages"))
	if err != nil {
		return nil
	}
	return c
}

// fetchError is exit 1 for a failed fetch, exit 2 for a malformed request.
func fetchError(err error) error {
	var fe *fetch.Error
	if errors.As(err, &fe) && fe.Code == "invalid_arguments" {
		return usageError(err)
	}
	return failedError(err)
}
