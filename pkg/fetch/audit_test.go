package fetch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

func TestAuditRecordsExactlyWhatSpecAllows(t *testing.T) {
	body := `<html><head><title>SECRET-TITLE</title></head><body><p>SECRET-BODY ` + strings.Repeat("x", 30000) + `</p>
<p>` + strings.Repeat("line\n", 3000) + `</p></body></html>`
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/start" {
			http.Redirect(w, r, "/final?x=1", http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Set-Cookie", "RESPONSE-COOKIE=1")
		fmt.Fprint(w, body)
	})
	var recs []AuditRecord
	e := &Engine{Auditor: AuditorFunc(func(_ context.Context, r AuditRecord) error { recs = append(recs, r); return nil })}
	submitted := s.URL + "/start?token=abc&q=1#frag"
	headers := []Header{{"Authorization", "Bearer cred"}, {"Cookie", "a=b"}}
	doc := mustFetch(t, e, Request{URL: submitted, Headers: headers, Extract: ExtractFull})

	// Page through the document: no network, so no audit row and no cursor
	// anywhere in the audit.
	store := NewMemoryStore(0)
	first, err := Pager{Store: store}.First(context.Background(), doc)
	if err != nil || first.NextCursor == "" {
		t.Fatalf("First: %v, cursor %q", err, first.NextCursor)
	}
	if _, err := (Pager{Store: store}).Next(context.Background(), first.NextCursor); err != nil {
		t.Fatal(err)
	}

	if len(recs) != 1 {
		t.Fatalf("%d audit records, want 1", len(recs))
	}
	r := recs[0]
	if r.URL != submitted {
		t.Errorf("URL %q, want the submitted URL with query and fragment", r.URL)
	}
	if len(r.Headers) != 2 || r.Headers[0] != (Header{"Authorization", Redacted}) || r.Headers[1] != (Header{"Cookie", Redacted}) {
		t.Errorf("headers %v, want names kept and credential values redacted", r.Headers)
	}
	if r.FinalURL != s.URL+"/final?x=1#frag" || r.Status != 200 || r.MIME != "text/html" || r.Bytes != int64(len(body)) || r.DurationMS < 0 || r.Time.IsZero() || r.Error != "" {
		t.Errorf("result fields %+v", r)
	}
	if len(r.Warnings) != 0 {
		t.Errorf("warnings %v", r.Warnings)
	}
	raw, _ := json.Marshal(r)
	wantLacks(t, string(raw), "SECRET-TITLE", "SECRET-BODY", "RESPONSE-COOKIE", first.NextCursor, "Bearer cred", "a=b")
}

func TestAuditRecordsWarningCodesAndFailures(t *testing.T) {
	var recs []AuditRecord
	e := &Engine{Auditor: AuditorFunc(func(_ context.Context, r AuditRecord) error { recs = append(recs, r); return nil })}
	other := serve(t, page("text/html", `<html><body><div id="root"></div><script src="/app.js"></script></body></html>`))
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/pdf" {
			w.Header().Set("Content-Type", "application/pdf")
			fmt.Fprint(w, "%PDF-")
			return
		}
		http.Redirect(w, r, other.URL+"/app", http.StatusFound)
	})
	doc := mustFetch(t, e, Request{URL: s.URL, Headers: []Header{{"X-Key", "v"}}})
	fetchErr(t, e, Request{URL: s.URL + "/pdf"})
	fetchErr(t, e, Request{URL: "gopher://x"})
	if len(recs) != 3 {
		t.Fatalf("%d records", len(recs))
	}
	if got := strings.Join(recs[0].Warnings, ","); got != WarnCrossOriginRedirect+","+WarnJavaScriptRequired {
		t.Errorf("warning codes %q (doc %v)", got, doc.Warnings)
	}
	raw, _ := json.Marshal(recs[0])
	wantLacks(t, string(raw), "message", "not sent there")
	if recs[1].Error != CodeUnsupportedMediaType || recs[1].Status != 200 || recs[1].MIME != "application/pdf" {
		t.Errorf("failure record %+v", recs[1])
	}
	if recs[2].Error != CodeInvalidArguments || recs[2].URL != "gopher://x" {
		t.Errorf("invalid URL record %+v", recs[2])
	}
}

func TestAuditFailureIsAWarning(t *testing.T) {
	s := serve(t, page("text/plain", "ok"))
	e := &Engine{Auditor: AuditorFunc(func(context.Context, AuditRecord) error { return errors.New("disk full") })}
	doc := mustFetch(t, e, Request{URL: s.URL})
	if !hasWarning(doc, WarnAuditFailed) {
		t.Fatalf("warnings %v", doc.Warnings)
	}
}

func TestAuditRedactsCredentialHeadersUnlessFull(t *testing.T) {
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "ok")
	})
	headers := []Header{
		{"Accept", "text/plain"},
		{"authorization", "Bearer T1"},
		{"Proxy-Authorization", "Basic T2"},
		{"COOKIE", "T3"},
		{"X-Api-Key", "T4"},
		{"X-Auth-Token", "T5"},
		{"Api-KEY", "T6"},
		{"X-Client-Secret", "T7"},
		{"User-Agent", "probe"},
	}
	for _, tc := range []struct {
		mode AuditHeaders
		want []Header
	}{
		{AuditHeadersRedacted, []Header{
			{"Accept", "text/plain"}, {"authorization", Redacted}, {"Proxy-Authorization", Redacted}, {"COOKIE", Redacted},
			{"X-Api-Key", Redacted}, {"X-Auth-Token", Redacted}, {"Api-KEY", Redacted}, {"X-Client-Secret", Redacted}, {"User-Agent", "probe"},
		}},
		{AuditHeadersFull, headers},
	} {
		var rec AuditRecord
		e := &Engine{AuditHeaders: tc.mode, Auditor: AuditorFunc(func(_ context.Context, r AuditRecord) error { rec = r; return nil })}
		mustFetch(t, e, Request{URL: s.URL, Headers: headers})
		if fmt.Sprint(rec.Headers) != fmt.Sprint(tc.want) {
			t.Errorf("mode %d: audit headers %v, want %v", tc.mode, rec.Headers, tc.want)
		}
	}
}

func TestParseAuditHeaders(t *testing.T) {
	for in, want := range map[string]AuditHeaders{"redacted": AuditHeadersRedacted, "full": AuditHeadersFull} {
		if got, err := ParseAuditHeaders(in); err != nil || got != want {
			t.Errorf("ParseAuditHeaders(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ParseAuditHeaders("none"); err == nil {
		t.Error("ParseAuditHeaders(none) succeeded")
	}
}
