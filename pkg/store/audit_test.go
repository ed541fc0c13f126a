package store

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/search"
)

func TestAuditRecordsListAndClear(t *testing.T) {
	s, _ := openTest(t)
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	rec := search.SearchRecord{Time: t0, API: "tav", Engine: "tavily", Attempt: 1, Query: search.Query{Text: "go sqlite"}, Status: "ok", DurationMS: 12}
	must(t, s.RecordSearch(ctxb(), rec))
	for i := range 4 {
		data := json.RawMessage(`{"url":"https://example.com/` + itoa(i) + `"}`)
		must(t, s.RecordAudit(ctxb(), AuditFetch, t0.Add(time.Duration(i+1)*time.Hour), data))
	}
	must(t, s.RecordAudit(ctxb(), AuditTool, time.Time{}, json.RawMessage(`{"run_id":"run_1","call_id":"c1","tool":"tavo_web_fetch","ok":true}`)))
	wantErr(t, s.RecordAudit(ctxb(), "", t0, json.RawMessage(`{}`)), ErrInvalid)
	wantErr(t, s.RecordAudit(ctxb(), AuditFetch, t0, json.RawMessage(`{bad`)), ErrInvalid)

	all, next, err := s.ListAudit(ctxb(), "", 0, "")
	if err != nil || next != "" || len(all) != 6 {
		t.Fatalf("ListAudit all: %d rows next %q %v", len(all), next, err)
	}
	if all[0].Kind != AuditTool || all[5].Kind != AuditSearch || all[0].Time.IsZero() {
		t.Fatalf("not newest first: %s … %s", all[0].Kind, all[5].Kind)
	}
	var back search.SearchRecord
	if err := json.Unmarshal(all[5].Data, &back); err != nil || back.Query.Text != "go sqlite" || !all[5].Time.Equal(t0) {
		t.Fatalf("search record round-trip %+v %v", back, err)
	}
	var fetched []string
	cursor := ""
	for {
		page, next, err := s.ListAudit(ctxb(), AuditFetch, 3, cursor)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range page {
			var d struct{ URL string }
			json.Unmarshal(r.Data, &d)
			fetched = append(fetched, d.URL[len(d.URL)-1:])
		}
		if next == "" {
			break
		}
		cursor = next
	}
	if len(fetched) != 4 || fetched[0] != "3" || fetched[3] != "0" {
		t.Fatalf("fetch rows paged %v", fetched)
	}
	_, _, err = s.ListAudit(ctxb(), "", 501, "")
	wantErr(t, err, ErrInvalid)
	_, _, err = s.ListAudit(ctxb(), "", 1, "nope")
	wantErr(t, err, ErrInvalid)

	n, err := s.ClearAudit(ctxb(), AuditFetch, t0.Add(150*time.Minute))
	if err != nil || n != 2 {
		t.Fatalf("ClearAudit before: %d %v", n, err)
	}
	n, err = s.ClearAudit(ctxb(), AuditSearch, time.Time{})
	if err != nil || n != 1 {
		t.Fatalf("ClearAudit kind: %d %v", n, err)
	}
	n, err = s.ClearAudit(ctxb(), "", time.Time{})
	if err != nil || n != 3 {
		t.Fatalf("ClearAudit all: %d %v", n, err)
	}
}
