package fetch

import (
	"context"
	"time"
)

// AuditRecord is what the audit keeps of one fetch (SPEC §6): the URL as
// submitted (query and fragment included) and every caller header's name
// and value, except that credential values (IsCredentialHeader) are kept as
// Redacted unless the Engine's AuditHeaders is AuditHeadersFull; of the outcome only the final URL, status, media type, byte count,
// duration, warning codes and, for a failure, the error code. It never
// holds the body, the title, a cursor or response headers.
type AuditRecord struct {
	Time     time.Time `json:"time"`
	URL      string    `json:"url"`
	Headers  []Header  `json:"headers"`
	FinalURL string    `json:"final_url,omitempty"`
	Status   int       `json:"status,omitempty"`
	MIME     string    `json:"mime,omitempty"`
	Bytes    int64     `json:"bytes"`
	// DurationMS is how long the fetch took, in milliseconds, like every
	// duration tavo records.
	DurationMS int64    `json:"duration_ms"`
	Warnings   []string `json:"warnings"`
	// Error is the error code of a failed fetch; empty on success.
	Error string `json:"error,omitempty"`
}

// Auditor keeps audit records; the store implements it.
type Auditor interface {
	RecordFetch(ctx context.Context, rec AuditRecord) error
}

// AuditorFunc adapts a function to Auditor.
type AuditorFunc func(ctx context.Context, rec AuditRecord) error

// RecordFetch calls f.
func (f AuditorFunc) RecordFetch(ctx context.Context, rec AuditRecord) error { return f(ctx, rec) }

func auditRecord(start time.Time, d time.Duration, req Request, mode AuditHeaders, st *fetchState, doc *Document, err error) AuditRecord {
	headers := RedactHeaders(req.Headers)
	if mode == AuditHeadersFull {
		headers = append([]Header{}, req.Headers...)
	}
	rec := AuditRecord{
		Time:       start.UTC(),
		URL:        req.URL,
		Headers:    headers,
		FinalURL:   st.finalURL,
		Status:     st.status,
		MIME:       st.mime,
		Bytes:      st.bytes,
		DurationMS: d.Milliseconds(),
		Warnings:   []string{},
	}
	if doc != nil {
		rec.Warnings = warningCodes(doc.Warnings)
	}
	if err != nil {
		rec.Error = CodeInternalError
		if fe, ok := err.(*Error); ok {
			rec.Error = fe.Code
		}
	}
	return rec
}
