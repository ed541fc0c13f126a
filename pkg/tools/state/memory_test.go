package state

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/tools"
)

func TestMemoryLifecycle(t *testing.T) {
	h := newHarness(t)
	if got := h.ok(MemoryCurrentName, `{}`); got != `{"enabled":false,"memories":[]}` {
		t.Fatalf("empty memory = %s", got)
	}
	// Append keeps injection off and trims.
	if got := h.ok(MemoryAppendName, `{"items":["  likes tea ","uses fish shell"]}`); got != `{"enabled":false,"memories":["likes tea","uses fish shell"]}` {
		t.Fatalf("append = %s", got)
	}
	// enabled alone keeps the notes.
	if got := h.ok(MemoryUpdateName, `{"enabled":true}`); got != `{"enabled":true,"memories":["likes tea","uses fish shell"]}` {
		t.Fatalf("enable = %s", got)
	}
	// Append never changes enabled, either way.
	if got := h.ok(MemoryAppendName, `{"items":["works in UTC"]}`); !strings.HasPrefix(got, `{"enabled":true,`) || !strings.Contains(got, `"works in UTC"]`) {
		t.Fatalf("append while enabled = %s", got)
	}
	// memories alone keeps enabled; the whole current object is accepted.
	if got := h.ok(MemoryUpdateName, `{"memories":["only this"]}`); got != `{"enabled":true,"memories":["only this"]}` {
		t.Fatalf("replace = %s", got)
	}
	if got := h.ok(MemoryUpdateName, `{"enabled":false,"memories":["a","b"]}`); got != `{"enabled":false,"memories":["a","b"]}` {
		t.Fatalf("whole object = %s", got)
	}
	if got := h.ok(MemoryUpdateName, `{"memories":[]}`); got != `{"enabled":false,"memories":[]}` {
		t.Fatalf("clear = %s", got)
	}
	m, err := h.st.Memory(context.Background())
	if err != nil || m.Enabled || len(m.Items) != 0 {
		t.Fatalf("stored = %+v %v", m, err)
	}
}

func TestMemoryHostileArguments(t *testing.T) {
	h := newHarness(t)
	h.ok(MemoryAppendName, `{"items":["keep me"]}`)
	long := strings.Repeat("x", store.MaxMemoryItemChars+1)
	for _, tc := range []struct{ tool, args, path string }{
		{MemoryUpdateName, `{}`, ""},
		{MemoryUpdateName, `{"enabled":"yes"}`, "enabled"},
		{MemoryUpdateName, `{"memories":"one"}`, "memories"},
		{MemoryUpdateName, `{"memories":null}`, "memories"},
		{MemoryUpdateName, `{"memories":["ok",""]}`, "memories[1]"},
		{MemoryUpdateName, `{"memories":["ok"," \n\t "]}`, "memories[1]"},
		{MemoryUpdateName, `{"memories":[1]}`, "memories[0]"},
		{MemoryUpdateName, `{"memories":["` + long + `"]}`, "memories[0]"},
		{MemoryUpdateName, `{"enabled":true,"extra":1}`, "extra"},
		{MemoryAppendName, `{}`, "items"},
		{MemoryAppendName, `{"items":[]}`, "items"},
		{MemoryAppendName, `{"items":["fine","   "]}`, "items[1]"},
		{MemoryAppendName, `{"items":"a note"}`, "items"},
		{MemoryAppendName, `{"items":["a"],"enabled":true}`, "enabled"},
		{MemoryCurrentName, `{"enabled":true}`, "enabled"},
	} {
		h.fail(h.env, tc.tool, tc.args, tools.CodeInvalidArguments, tc.path)
	}
	if got := h.ok(MemoryCurrentName, `{}`); got != `{"enabled":false,"memories":["keep me"]}` {
		t.Fatalf("hostile calls changed memory: %s", got)
	}
}

func TestMemoryLimits(t *testing.T) {
	h := newHarness(t)
	// 200 notes fit; one more does not, and the error says so.
	items := make([]string, store.MaxMemoryItems)
	for i := range items {
		items[i] = fmt.Sprintf(`"note %d"`, i)
	}
	h.ok(MemoryUpdateName, `{"memories":[`+strings.Join(items, ",")+`]}`)
	e := h.fail(h.env, MemoryAppendName, `{"items":["one too many"]}`, tools.CodeLimitExceeded, "items")
	if e.Error.Details["limit"] != float64(store.MaxMemoryItems) || !strings.Contains(e.Error.Message, "201 notes") {
		t.Fatalf("count limit: %+v", e.Error)
	}
	// The byte limit: 17 notes of 2000 characters is over 32 KiB.
	big := make([]string, 17)
	for i := range big {
		big[i] = `"` + strings.Repeat("y", store.MaxMemoryItemChars) + `"`
	}
	e = h.fail(h.env, MemoryUpdateName, `{"memories":[`+strings.Join(big, ",")+`]}`, tools.CodeLimitExceeded, "memories")
	if e.Error.Details["unit"] != "bytes" {
		t.Fatalf("byte limit: %+v", e.Error)
	}
	h.ok(MemoryUpdateName, `{"memories":[`+strings.Join(big[:16], ",")+`]}`)
	h.fail(h.env, MemoryAppendName, `{"items":["`+strings.Repeat("z", 800)+`"]}`, tools.CodeLimitExceeded, "items")
	// Characters, not bytes, count for one note.
	h.ok(MemoryUpdateName, `{"memories":["`+strings.Repeat("é", store.MaxMemoryItemChars)+`"]}`)
}
