package search

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Runner runs searches on the configured default API and, only when the
// config names them explicitly, on fallback APIs in order.
type Runner struct {
	// Default is the one API that runs; when it is incomplete every search
	// fails with not_configured, whatever Fallback holds (no silent fallback).
	Default API
	// Fallback lists the APIs tried, in order, after the default failed.
	Fallback []API
	// Client sends the requests; nil means http.DefaultClient.
	Client *http.Client
	// Audit, when set, records every attempt.
	Audit Auditor
	// Now stamps audit records; nil means time.Now.
	Now func() time.Time
}

// Ready reports whether the default API can run; nil means tavo_web_search
// may be offered and `tavo search` may run.
func (r *Runner) Ready() error {
	if r.Default.Name == "" && r.Default.Engine == "" {
		return &Error{Code: CodeNotConfigured, Message: "no search API is configured; add one under [search.apis] and name it in search.default"}
	}
	return r.Default.Check()
}

// Search validates q and runs it on the default API, then on each fallback
// while attempts fail. Each failed attempt that leads to another adds a
// WarnFallback warning to the eventual response. When every attempt fails
// the error is that attempt's *Error, or for several a summary *Error whose
// Code is the last attempt's.
func (r *Runner) Search(ctx context.Context, q Query) (*Response, error) {
	if err := q.Validate(); err != nil {
		return nil, err
	}
	if err := r.Ready(); err != nil {
		return nil, err
	}
	apis := append([]API{r.Default}, r.Fallback...)
	var warns []Warning
	var failures []*Error
	for i, api := range apis {
		eng, err := New(api, r.Client)
		if err != nil {
			warns = append(warns, Warning{Code: WarnFallbackSkipped,
				Message: fmt.Sprintf("fallback search API %q was skipped: %s", api.Name, errMessage(err))})
			continue
		}
		aq := q.WithDefaults(api.Defaults)
		resp, err := r.attempt(ctx, eng, api, aq, i+1)
		if err == nil {
			resp.Warnings = append(warns, resp.Warnings...)
			return resp, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var ve *ValidationError
		if errors.As(err, &ve) {
			return nil, err
		}
		se := asSearchError(err, api)
		failures = append(failures, se)
		if i < len(apis)-1 {
			warns = append(warns, Warning{Code: WarnFallback,
				Message: fmt.Sprintf("search API %q (%s) failed with %s; tried the next one in the fallback list", api.Name, api.Engine, shortOutcome(se))})
		}
	}
	if len(failures) == 1 {
		return nil, failures[0]
	}
	parts := make([]string, len(failures))
	for i, f := range failures {
		parts[i] = fmt.Sprintf("%s: %s", f.API, shortOutcome(f))
	}
	last := failures[len(failures)-1]
	return nil, &Error{Code: last.Code, RetryAfter: last.RetryAfter,
		Message: "every configured search API failed (" + strings.Join(parts, "; ") + ")"}
}

// attempt runs one search and records it.
func (r *Runner) attempt(ctx context.Context, eng Engine, api API, q Query, n int) (*Response, error) {
	now := time.Now
	if r.Now != nil {
		now = r.Now
	}
	start := time.Now()
	at := now()
	resp, err := eng.Search(ctx, q)
	if err == nil {
		resp.API, resp.Engine = api.Name, api.Engine
	}
	if r.Audit == nil {
		return resp, err
	}
	rec := SearchRecord{Time: at.UTC(), API: api.Name, Engine: api.Engine, Attempt: n, Query: q,
		DurationMS: time.Since(start).Milliseconds(), Status: "ok"}
	if nq, nerr := prepare(q); nerr == nil {
		rec.Query = nq
	}
	if err != nil {
		se := asSearchError(err, api)
		rec.Status, rec.Error, rec.HTTPStatus = se.Code, se.Message, se.Status
	} else {
		rec.Results, rec.Warnings = resp.Results, resp.Warnings
	}
	// The record is written even when the caller's context just ended.
	if aerr := r.Audit.RecordSearch(context.WithoutCancel(ctx), rec); aerr != nil && err == nil {
		resp.Warnings = append(resp.Warnings, Warning{Code: WarnAuditFailed, Message: "the search could not be written to the search log"})
	}
	return resp, err
}

// asSearchError views any engine failure as *Error; an unexpected error
// becomes a generic upstream_error without its text.
func asSearchError(err error, api API) *Error {
	var se *Error
	if errors.As(err, &se) {
		return se
	}
	switch {
	case errors.Is(err, context.Canceled):
		return &Error{Code: CodeUpstream, Engine: api.Engine, API: api.Name, Message: "cancelled"}
	case errors.Is(err, context.DeadlineExceeded):
		return &Error{Code: CodeTimeout, Engine: api.Engine, API: api.Name, Message: "the search ran out of time"}
	}
	var ve *ValidationError
	if errors.As(err, &ve) {
		return &Error{Code: CodeBadRequest, Engine: api.Engine, API: api.Name, Message: cleanMessage(ve.Error(), api.APIKey)}
	}
	return &Error{Code: CodeUpstream, Engine: api.Engine, API: api.Name, Message: "the search failed unexpectedly"}
}

func errMessage(err error) string {
	var se *Error
	if errors.As(err, &se) {
		return se.Message
	}
	return "it cannot be used"
}

func shortOutcome(e *Error) string {
	s := e.Code
	if e.Status != 0 {
		s += fmt.Sprintf(" (HTTP %d)", e.Status)
	}
	return s
}
