package search_test

import (
	"context"
	"testing"

	"github.com/tavo-cli/tavo/pkg/search"
	"github.com/tavo-cli/tavo/pkg/search/fake"
)

// BenchmarkRunnerSearch measures one 20-result search through the Runner
// against a local fake: request building, HTTP on loopback, decoding and
// normalisation.
func BenchmarkRunnerSearch(b *testing.B) {
	for _, tc := range []struct {
		name string
		api  func() (search.API, func())
	}{
		{"tavily", func() (search.API, func()) { f := fake.NewTavily(tavilyKey); return tavilyAPI(f), f.Close }},
		{"brave", func() (search.API, func()) { f := fake.NewBrave(braveKey); return braveAPI(f), f.Close }},
		{"searxng", func() (search.API, func()) {
			f := fake.NewSearXNG()
			f.SetPageSize(20)
			return searxAPI(f), f.Close
		}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			api, closeFn := tc.api()
			defer closeFn()
			r := &search.Runner{Default: api}
			q := search.Query{Text: "go generics", MaxResults: 20}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := r.Search(context.Background(), q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
