package providertest

import (
	"bytes"
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// BenchDecode measures decode on stream, which holds units events (or
// chunks), for a request without tools and a sink that drops the deltas.
// It reports bytes per second, allocations and nanoseconds per event under
// the name unit ("ns/event"), and stops the benchmark when decode fails or
// ok refuses the response.
func BenchDecode(b *testing.B, decode StreamDecoder, stream []byte, units int, unit string, ok func(*providers.Response) bool) {
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		resp, err := decode(bytes.NewReader(stream), Discard{}, false)
		if err != nil || !ok(resp) {
			b.Fatalf("resp %+v err %v", resp, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(units), unit)
}
