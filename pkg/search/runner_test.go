package search_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/search"
	"github.com/tavo-cli/tavo/pkg/search/fake"
)

// recorder is an Auditor that keeps the records.
type recorder struct {
	mu   sync.Mutex
	recs []search.SearchRecord
	err  error
}

func (r *recorder) RecordSearch(_ context.Context, rec search.SearchRecord) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.recs = append(r.recs, rec)
	return r.err
}

var fixedNow = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func TestRunnerDefaultOnly(t *testing.T) {
	tv := fake.NewTavily(tavilyKey)
	defer tv.Close()
	tv.Enqueue(fake.TavilyRateLimited())
	sx := fake.NewSearXNG()
	defer sx.Close()
	// The searx API exists in the config but is not in the fallback list: it
	// must never be used.
	r := &search.Runner{Default: tavilyAPI(tv)}
	_, err := r.Search(context.Background(), search.Query{Text: "go"})
	var se *search.Error
	if !errors.As(err, &se) || se.Code != search.CodeRateLimited || se.API != "tav" {
		t.Fatalf("err = %v", err)
	}
	if n := len(sx.Requests()); n != 0 {
		t.Fatalf("searx got %d requests without being a fallback", n)
	}
}

func TestRunnerFallbackOrderAndWarnings(t *testing.T) {
	tv := fake.NewTavily(tavilyKey)
	defer tv.Close()
	tv.Enqueue(fake.TavilyServerError())
	br := fake.NewBrave(braveKey)
	defer br.Close()
	br.Enqueue(fake.BraveRateLimited())
	sx := fake.NewSearXNG()
	defer sx.Close()
	rec := &recorder{}
	r := &search.Runner{
		Default:  tavilyAPI(tv),
		Fallback: []search.API{braveAPI(br), searxAPI(sx)},
		Audit:    rec,
		Now:      func() time.Time { return fixedNow },
	}
	resp, err := r.Search(context.Background(), search.Query{Text: "go", MaxResults: 3})
	if err != nil {
		t.Fatal(err)
	}
	if resp.API != "sx" || resp.Engine != "searxng" || len(resp.Results) != 3 {
		t.Fatalf("answered by %s/%s with %d results", resp.API, resp.Engine, len(resp.Results))
	}
	if len(tv.Requests()) != 1 || len(br.Requests()) != 1 || len(sx.Requests()) != 1 {
		t.Fatalf("requests tavily %d, brave %d, searx %d", len(tv.Requests()), len(br.Requests()), len(sx.Requests()))
	}
	if len(resp.Warnings) < 2 {
		t.Fatalf("warnings %v", resp.Warnings)
	}
	w0, w1 := resp.Warnings[0], resp.Warnings[1]
	if w0.Code != search.WarnFallback || !strings.Contains(w0.Message, `"tav" (tavily) failed with upstream_error (HTTP 500)`) {
		t.Errorf("first warning %+v", w0)
	}
	if w1.Code != search.WarnFallback || !strings.Contains(w1.Message, `"brv" (brave) failed with rate_limited (HTTP 429)`) {
		t.Errorf("second warning %+v", w1)
	}
	// One audit record per attempt, in order.
	if len(rec.recs) != 3 {
		t.Fatalf("%d audit records", len(rec.recs))
	}
	wantStatus := []string{"upstream_error", "rate_limited", "ok"}
	for i, rc := range rec.recs {
		if rc.Attempt != i+1 || rc.Status != wantStatus[i] || !rc.Time.Equal(fixedNow) {
			t.Errorf("record %d: attempt %d status %s time %v", i, rc.Attempt, rc.Status, rc.Time)
		}
	}
	if rec.recs[0].HTTPStatus != 500 || rec.recs[0].Error == "" || rec.recs[0].Results != nil {
		t.Errorf("failed record %+v", rec.recs[0])
	}
	ok := rec.recs[2]
	if ok.API != "sx" || ok.Engine != "searxng" || len(ok.Results) != 3 || ok.Query.Text != "go" || ok.Query.MaxResults != 3 {
		t.Errorf("ok record %+v", ok)
	}
}

func TestRunnerAllFail(t *testing.T) {
	tv := fake.NewTavily(tavilyKey)
	defer tv.Close()
	tv.Enqueue(fake.TavilyServerError())
	br := fake.NewBrave(braveKey)
	defer br.Close()
	br.Enqueue(fake.BraveRateLimited())
	r := &search.Runner{Default: tavilyAPI(tv), Fallback: []search.API{braveAPI(br)}}
	_, err := r.Search(context.Background(), search.Query{Text: "go"})
	var se *search.Error
	if !errors.As(err, &se) {
		t.Fatalf("err = %v", err)
	}
	want := "search: rate_limited: every configured search API failed (tav: upstream_error (HTTP 500); brv: rate_limited (HTTP 429)); retry after 1s"
	if se.Error() != want {
		t.Fatalf("err = %q\nwant  %q", se.Error(), want)
	}
}

func TestRunnerIncompleteDefaultFailsWithoutFallback(t *testing.T) {
	sx := fake.NewSearXNG()
	defer sx.Close()
	r := &search.Runner{Default: search.API{Name: "tav", Engine: "tavily"}, Fallback: []search.API{searxAPI(sx)}}
	if err := r.Ready(); err == nil {
		t.Fatal("Ready() = nil for a default without key")
	}
	_, err := r.Search(context.Background(), search.Query{Text: "go"})
	var se *search.Error
	if !errors.As(err, &se) || se.Code != search.CodeNotConfigured || !strings.Contains(se.Error(), "missing api_key") {
		t.Fatalf("err = %v", err)
	}
	if len(sx.Requests()) != 0 {
		t.Fatal("an incomplete default fell back silently")
	}
	if err := (&search.Runner{}).Ready(); err == nil || !strings.Contains(err.Error(), "no search API is configured") {
		t.Fatalf("empty Runner Ready() = %v", err)
	}
}

func TestRunnerSkipsIncompleteFallback(t *testing.T) {
	tv := fake.NewTavily(tavilyKey)
	defer tv.Close()
	tv.Enqueue(fake.TavilyServerError())
	sx := fake.NewSearXNG()
	defer sx.Close()
	r := &search.Runner{Default: tavilyAPI(tv), Fallback: []search.API{{Name: "brv", Engine: "brave"}, searxAPI(sx)}}
	resp, err := r.Search(context.Background(), search.Query{Text: "go"})
	if err != nil {
		t.Fatal(err)
	}
	codes := warningCodes(resp.Warnings)
	if len(codes) < 2 || codes[0] != search.WarnFallback || codes[1] != search.WarnFallbackSkipped {
		t.Fatalf("warnings %v", resp.Warnings)
	}
}

func TestRunnerInvalidQueryTriesNothing(t *testing.T) {
	tv := fake.NewTavily(tavilyKey)
	defer tv.Close()
	r := &search.Runner{Default: tavilyAPI(tv)}
	_, err := r.Search(context.Background(), search.Query{Text: "go", MaxResults: 40})
	var ve *search.ValidationError
	if !errors.As(err, &ve) || ve.Path != "max_results" {
		t.Fatalf("err = %v", err)
	}
	if len(tv.Requests()) != 0 {
		t.Fatal("an invalid query was sent")
	}
}

func TestRunnerAppliesEachAPIsDefaults(t *testing.T) {
	tv := fake.NewTavily(tavilyKey)
	defer tv.Close()
	api := tavilyAPI(tv)
	api.Defaults = search.Query{Depth: "advanced", ChunksPerSource: 2, MaxResults: 8}
	r := &search.Runner{Default: api}
	if _, err := r.Search(context.Background(), search.Query{Text: "go", MaxResults: 4}); err != nil {
		t.Fatal(err)
	}
	body := string(lastRequest(t, tv).Body)
	for _, want := range []string{`"search_depth":"advanced"`, `"chunks_per_source":2`, `"max_results":4`} {
		if !strings.Contains(body, want) {
			t.Errorf("body %s lacks %s", body, want)
		}
	}
}

func TestRunnerAuditFailureIsAWarning(t *testing.T) {
	tv := fake.NewTavily(tavilyKey)
	defer tv.Close()
	r := &search.Runner{Default: tavilyAPI(tv), Audit: &recorder{err: errors.New("disk full")}}
	resp, err := r.Search(context.Background(), search.Query{Text: "go"})
	if err != nil {
		t.Fatal(err)
	}
	if !hasWarning(resp, search.WarnAuditFailed) {
		t.Fatalf("warnings %v", resp.Warnings)
	}
}

func TestRunnerCancelledContext(t *testing.T) {
	tv := fake.NewTavily(tavilyKey)
	defer tv.Close()
	sx := fake.NewSearXNG()
	defer sx.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := &search.Runner{Default: tavilyAPI(tv), Fallback: []search.API{searxAPI(sx)}}
	_, err := r.Search(ctx, search.Query{Text: "go"})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if len(sx.Requests()) != 0 {
		t.Fatal("a cancelled search fell back")
	}
}

func TestAuditRecordContent(t *testing.T) {
	br := fake.NewBrave(braveKey)
	defer br.Close()
	rec := &recorder{}
	r := &search.Runner{Default: braveAPI(br), Audit: rec, Now: func() time.Time { return fixedNow }}
	q := search.Query{Text: "  go   generics ", Topic: "finance", IncludeDomains: []string{"HTTPS://Example.org/x"}}
	resp, err := r.Search(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.recs) != 1 {
		t.Fatalf("%d records", len(rec.recs))
	}
	got := rec.recs[0]
	wantQ := search.Query{Text: "go generics", MaxResults: 5, Topic: "finance", IncludeDomains: []string{"example.org"}}
	if jsonOf(t, got.Query) != jsonOf(t, wantQ) {
		t.Errorf("audited query %s, want the normalised %s", jsonOf(t, got.Query), jsonOf(t, wantQ))
	}
	if jsonOf(t, got.Results) != jsonOf(t, resp.Results) || jsonOf(t, got.Warnings) != jsonOf(t, resp.Warnings) {
		t.Error("audited results or warnings differ from the response")
	}
	if got.Status != "ok" || got.API != "brv" || got.Engine != "brave" || got.Attempt != 1 || got.DurationMS < 0 {
		t.Errorf("record %+v", got)
	}
	mustNotContain(t, "audit record", jsonOf(t, got), braveKey, br.URL(), "goggles", "X-Subscription-Token")
}
