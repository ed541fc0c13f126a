package askuser

import (
	"strconv"
	"testing"

	"github.com/tavo-cli/tavo/pkg/tools"
)

// renamed is tavo_ask_user under another name, to fill a catalog.
type renamed struct {
	tools.Tool
	name string
}

func (r renamed) Spec() tools.Spec {
	s := r.Tool.Spec()
	s.Name, s.ID = r.name, r.name
	return s
}

// BenchmarkCatalog25 measures building a catalog of 25 tools with schemas
// the size of tavo_ask_user's, which every tavo process that lists or runs
// tools pays once.
func BenchmarkCatalog25(b *testing.B) {
	ts := make([]tools.Tool, 25)
	for i := range ts {
		ts[i] = renamed{New(), "tool_" + strconv.Itoa(i)}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tools.NewCatalog(ts...); err != nil {
			b.Fatal(err)
		}
	}
}
