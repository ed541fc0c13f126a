package fetch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/tavo-cli/tavo/pkg/httpx"
)

// acceptHeader prefers the formats the converter reads.
const acceptHeader = "text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.8,application/json;q=0.8,application/xml;q=0.7,*/*;q=0.5"

// acceptEncoding is set by the engine, never by the caller: setting it
// turns off Go's transparent gzip so the engine can count decompressed
// bytes itself, and it lists only the codings the engine can undo.
const acceptEncoding = "gzip, deflate, br"

// maxLocationBytes bounds a redirect target so a hostile server cannot grow
// the final URL (and so every result) without limit.
const maxLocationBytes = 8 << 10

func parseTarget(raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, errorf(CodeInvalidArguments, "the URL is empty; give an http:// or https:// URL")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, wrapf(CodeInvalidArguments, err, "the URL %q does not parse: %v", raw, unwrapURLError(err))
	}
	if err := checkScheme(u); err != nil {
		return nil, err
	}
	return u, nil
}

func checkScheme(u *url.URL) error {
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	case "":
		return errorf(CodeInvalidArguments, "the URL %q has no scheme; give an http:// or https:// URL", u.String())
	default:
		return errorf(CodeInvalidArguments, "only http and https URLs can be fetched, not %s:", u.Scheme)
	}
	if u.Host == "" {
		return errorf(CodeInvalidArguments, "the URL %q has no host", u.String())
	}
	return nil
}

// origin is scheme, host and port, with the default port filled in.
func origin(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return scheme + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

func isRedirect(status int) bool {
	switch status {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// get follows redirects by hand so it can decide, hop by hop, whether the
// caller's headers may go along.
func (e *Engine) get(ctx context.Context, start *url.URL, req Request, limits Limits, st *fetchState) (*Document, error) {
	var warnings []Warning
	cur := start
	caller := req.Headers
	visited := map[string]bool{}
	for redirects := 0; ; redirects++ {
		visited[visitKey(cur, caller)] = true
		var doc *Document
		var next *url.URL
		err := e.do(ctx, cur, caller, func(resp *http.Response) error {
			st.finalURL, st.status = cur.String(), resp.StatusCode
			if !isRedirect(resp.StatusCode) {
				var err error
				doc, err = e.readDocument(ctx, resp, req, cur, limits, st, warnings)
				return err
			}
			discard(resp)
			var err error
			next, err = redirectTarget(cur, resp)
			return err
		})
		if err != nil {
			return nil, err
		}
		if doc != nil {
			return doc, nil
		}
		if redirects == limits.Redirects {
			return nil, limitError(LimitRedirects, int64(limits.Redirects))
		}
		if origin(next) != origin(cur) && len(caller) > 0 {
			warnings = append(warnings, Warning{
				Code:    WarnCrossOriginRedirect,
				Message: "redirected from " + origin(cur) + " to " + origin(next) + "; the caller's headers (" + headerNames(caller) + ") were not sent there",
			})
			caller = nil
		}
		if visited[visitKey(next, caller)] {
			return nil, errorf(CodeUpstreamError, "redirect loop: %s redirects back to %s, which was already visited", cur.Redacted(), next.Redacted())
		}
		cur = next
	}
}

func visitKey(u *url.URL, caller []Header) string {
	c := *u
	c.Fragment, c.RawFragment = "", ""
	if len(caller) > 0 {
		return "h " + c.String()
	}
	return "- " + c.String()
}

func redirectTarget(cur *url.URL, resp *http.Response) (*url.URL, error) {
	loc := resp.Header.Get("Location")
	if loc == "" {
		return nil, errorf(CodeUpstreamError, "%s answered HTTP %d without a Location header", cur.Redacted(), resp.StatusCode)
	}
	if len(loc) > maxLocationBytes {
		return nil, errorf(CodeUpstreamError, "%s redirected to a Location longer than %s", cur.Redacted(), sizeString(maxLocationBytes))
	}
	next, err := cur.Parse(loc)
	if err != nil {
		return nil, wrapf(CodeUpstreamError, err, "%s redirected to an invalid Location %q", cur.Redacted(), loc)
	}
	if err := checkScheme(next); err != nil {
		return nil, errorf(CodeUpstreamError, "%s redirected to %q, which is not an http or https URL", cur.Redacted(), loc)
	}
	// A redirect without a fragment keeps the one asked for (RFC 9110 §10.2.2).
	if next.Fragment == "" {
		next.Fragment, next.RawFragment = cur.Fragment, cur.RawFragment
	}
	return next, nil
}

func headerNames(hs []Header) string {
	names := make([]string, 0, len(hs))
	for _, h := range hs {
		names = append(names, h.Name)
	}
	return strings.Join(names, ", ")
}

// discard drains a little of a redirect body so the connection can be
// reused, then closes it.
func discard(resp *http.Response) {
	_, _ = io.CopyN(io.Discard, resp.Body, 64<<10)
	_ = resp.Body.Close()
}

// do sends one GET through the shared HTTP layer (no retries: a page that
// fails is reported to the model, which decides) and hands the answer to
// read before its body is closed.
func (e *Engine) do(ctx context.Context, u *url.URL, caller []Header, read func(*http.Response) error) error {
	ua := e.UserAgent
	if ua == "" {
		ua = "tavo"
	}
	h := http.Header{}
	h.Set("User-Agent", ua)
	h.Set("Accept", acceptHeader)
	seen := map[string]bool{}
	for _, hd := range caller {
		key := http.CanonicalHeaderKey(hd.Name)
		switch key {
		case "Host":
			// httpx sends a Host header as the request's Host.
			h.Set("Host", hd.Value)
			continue
		case "Accept-Encoding":
			continue
		}
		if !seen[key] {
			h.Del(key)
			seen[key] = true
		}
		h[key] = append(h[key], hd.Value)
	}
	h.Set("Accept-Encoding", acceptEncoding)
	var result error
	client := &httpx.Client{HTTP: e.client}
	_, err := client.Do(ctx, &httpx.Exchange{
		Method: http.MethodGet, URL: u.String(), Header: h,
		Handle: func(resp *http.Response, err error) httpx.Verdict {
			if err != nil {
				result = wrapf(CodeUpstreamError, err, "could not fetch %s: %v", u.Redacted(), unwrapURLError(err))
				return httpx.Verdict{}
			}
			result = read(resp)
			return httpx.Verdict{}
		},
	})
	var ue *httpx.URLError
	switch {
	case errors.As(err, &ue):
		return wrapf(CodeInvalidArguments, err, "cannot build a request for %s: %s", u.Redacted(), ue.Detail)
	case err != nil:
		return wrapf(CodeUpstreamError, err, "could not fetch %s: %v", u.Redacted(), err)
	}
	return result
}

func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
