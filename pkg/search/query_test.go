package search

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestValidateRanges(t *testing.T) {
	ok := Query{Text: "go release notes"}
	tests := []struct {
		name     string
		mutate   func(*Query)
		wantPath string // "" means valid
	}{
		{"minimal", func(*Query) {}, ""},
		{"empty query", func(q *Query) { q.Text = "" }, "query"},
		{"blank query", func(q *Query) { q.Text = " \t\n " }, "query"},
		{"query of 400 runes", func(q *Query) { q.Text = strings.Repeat("é", 400) }, ""},
		{"query of 401 runes", func(q *Query) { q.Text = strings.Repeat("é", 401) }, "query"},
		{"max_results 1", func(q *Query) { q.MaxResults = 1 }, ""},
		{"max_results 20", func(q *Query) { q.MaxResults = 20 }, ""},
		{"max_results 31", func(q *Query) { q.MaxResults = 31 }, "max_results"},
		{"max_results -1", func(q *Query) { q.MaxResults = -1 }, "max_results"},
		{"chunks 1", func(q *Query) { q.ChunksPerSource = 1 }, ""},
		{"chunks 3", func(q *Query) { q.ChunksPerSource = 3 }, ""},
		{"chunks 4", func(q *Query) { q.ChunksPerSource = 4 }, "chunks_per_source"},
		{"chunks -2", func(q *Query) { q.ChunksPerSource = -2 }, "chunks_per_source"},
		{"topic news", func(q *Query) { q.Topic = "news" }, ""},
		{"topic finance", func(q *Query) { q.Topic = "finance" }, ""},
		{"topic sports", func(q *Query) { q.Topic = "sports" }, "topic"},
		{"time_range week", func(q *Query) { q.TimeRange = "week" }, ""},
		{"time_range d", func(q *Query) { q.TimeRange = "d" }, "time_range"},
		{"depth ultra-fast", func(q *Query) { q.Depth = "ultra-fast" }, ""},
		{"depth deep", func(q *Query) { q.Depth = "deep" }, "depth"},
		{"domain with scheme and path", func(q *Query) { q.IncludeDomains = []string{"https://Dart.dev/guides"} }, ""},
		{"domain with space", func(q *Query) { q.IncludeDomains = []string{"ok.com", "not a domain"} }, "include_domains[1]"},
		{"empty domain", func(q *Query) { q.ExcludeDomains = []string{""} }, "exclude_domains[0]"},
		{"domain dash label", func(q *Query) { q.ExcludeDomains = []string{"-bad.com"} }, "exclude_domains[0]"},
		{"idn domain", func(q *Query) { q.IncludeDomains = []string{"bücher.de"} }, ""},
		{"301 includes", func(q *Query) { q.IncludeDomains = manyDomains(301) }, "include_domains"},
		{"300 includes", func(q *Query) { q.IncludeDomains = manyDomains(300) }, ""},
		{"151 excludes", func(q *Query) { q.ExcludeDomains = manyDomains(151) }, "exclude_domains"},
		{"in both lists", func(q *Query) {
			q.IncludeDomains = []string{"a.com"}
			q.ExcludeDomains = []string{"b.com", "A.com"}
		}, "exclude_domains[1]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := ok
			tt.mutate(&q)
			err := q.Validate()
			if tt.wantPath == "" {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("Validate() = %v, want *ValidationError", err)
			}
			if ve.Path != tt.wantPath || ve.Expected == "" || ve.Actual == "" || ve.Message == "" {
				t.Fatalf("got %+v, want path %q with expected, actual and message set", ve, tt.wantPath)
			}
		})
	}
}

func manyDomains(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("d%d.example.com", i)
	}
	return out
}

func TestNormalized(t *testing.T) {
	q, err := Query{
		Text:           "  dart \n release   notes ",
		IncludeDomains: []string{"https://Dart.dev/guides", "*.pub.dev", "dart.dev", "user@api.flutter.dev:443", "go.dev."},
	}.Normalized()
	if err != nil {
		t.Fatal(err)
	}
	if q.Text != "dart release notes" {
		t.Errorf("Text = %q", q.Text)
	}
	want := []string{"dart.dev", "pub.dev", "api.flutter.dev", "go.dev"}
	if !reflect.DeepEqual(q.IncludeDomains, want) {
		t.Errorf("IncludeDomains = %q, want %q", q.IncludeDomains, want)
	}
}

func TestWithDefaults(t *testing.T) {
	d := Query{MaxResults: 7, Topic: "news", TimeRange: "month", Depth: "advanced", ChunksPerSource: 2, ExcludeDomains: []string{"spam.com"}}
	got := Query{Text: "x", MaxResults: 3, TimeRange: "day"}.WithDefaults(d)
	want := Query{Text: "x", MaxResults: 3, Topic: "news", TimeRange: "day", Depth: "advanced", ChunksPerSource: 2, ExcludeDomains: []string{"spam.com"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("WithDefaults = %+v, want %+v", got, want)
	}
	// An explicit empty list is the caller's choice and wins over defaults.
	got = Query{Text: "x", ExcludeDomains: []string{}}.WithDefaults(d)
	if len(got.ExcludeDomains) != 0 {
		t.Fatalf("explicit empty list replaced by defaults: %q", got.ExcludeDomains)
	}
	// The defaults' slice is not shared.
	got = Query{Text: "x"}.WithDefaults(d)
	got.ExcludeDomains[0] = "changed"
	if d.ExcludeDomains[0] != "spam.com" {
		t.Fatal("WithDefaults shares the defaults' slice")
	}
}

func TestAPIMissingAndCheck(t *testing.T) {
	tests := []struct {
		api         API
		wantMissing []string
		wantErr     string
	}{
		{API{Name: "t", Engine: "tavily"}, []string{"api_key"}, "missing api_key"},
		{API{Name: "b", Engine: "brave", APIKey: "  "}, []string{"api_key"}, "missing api_key"},
		{API{Name: "s", Engine: "searxng"}, []string{"base_url"}, "missing base_url"},
		{API{Name: "x"}, []string{"engine"}, "missing engine"},
		{API{Name: "g", Engine: "google", APIKey: "k"}, nil, `unknown engine "google"`},
		{API{Name: "s", Engine: "searxng", BaseURL: "127.0.0.1:8888"}, nil, "base_url must be an absolute http(s) URL"},
		{API{Name: "s", Engine: "searxng", BaseURL: "http://h/?token=secret"}, nil, "without query"},
		{API{Name: "t", Engine: "tavily", APIKey: "k", Defaults: Query{MaxResults: 50}}, nil, "default max_results"},
		{API{Name: "t", Engine: "tavily", APIKey: "k", Defaults: Query{Depth: "advanced", ChunksPerSource: 3}}, nil, ""},
		{API{Name: "s", Engine: "searxng", BaseURL: "http://127.0.0.1:8888/searx/"}, nil, ""},
	}
	for _, tt := range tests {
		if got := tt.api.Missing(); !reflect.DeepEqual(got, tt.wantMissing) {
			t.Errorf("%+v.Missing() = %q, want %q", tt.api, got, tt.wantMissing)
		}
		err := tt.api.Check()
		if tt.wantErr == "" {
			if err != nil {
				t.Errorf("%+v.Check() = %v", tt.api, err)
			}
			continue
		}
		var se *Error
		if !errors.As(err, &se) || se.Code != CodeNotConfigured || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%+v.Check() = %v, want not_configured containing %q", tt.api, err, tt.wantErr)
		}
		if strings.Contains(err.Error(), "secret") {
			t.Errorf("Check() repeats the base URL: %v", err)
		}
	}
}
