package search

import (
	"context"
	"time"
)

// Auditor keeps the search log. The Runner records one SearchRecord per
// attempt, so a fallback shows as several records.
type Auditor interface {
	RecordSearch(ctx context.Context, rec SearchRecord) error
}

// SearchRecord is what the search log keeps of one attempt: the normalised
// query with its options, the normalised results and warnings, and the
// outcome. It never holds a key, a raw request or body, a request id or the
// address connected to.
type SearchRecord struct {
	Time time.Time `json:"time"`
	// API is the configured API's name, Engine its engine.
	API    string `json:"api"`
	Engine string `json:"engine"`
	// Attempt is 1 for the default API, 2… for the fallbacks tried after it.
	Attempt int `json:"attempt"`
	// Query is the query as sent, after defaults and normalisation.
	Query    Query     `json:"query"`
	Results  []Result  `json:"results,omitempty"`
	Warnings []Warning `json:"warnings,omitempty"`
	// Status is "ok" or the *Error code.
	Status string `json:"status"`
	// Error is the clean one-line message when Status is not "ok".
	Error      string `json:"error,omitempty"`
	HTTPStatus int    `json:"http_status,omitempty"`
	DurationMS int64  `json:"duration_ms"`
}

// AuditorFunc adapts a function to Auditor.
type AuditorFunc func(ctx context.Context, rec SearchRecord) error

// RecordSearch calls f.
func (f AuditorFunc) RecordSearch(ctx context.Context, rec SearchRecord) error { return f(ctx, rec) }
