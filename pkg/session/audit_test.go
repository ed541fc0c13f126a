package session

import (
	"context"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/tools/webfetch"
)

// A tavo_web_fetch call's audit row keeps no cursor and no credential
// header value (SPEC §6), though the journal keeps the event as streamed.
func TestToolAuditKeepsNoCursorOrCredential(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	b, err := Bind(ctx, st, BindOptions{Prompt: "read", Meta: store.RunMeta{Model: "m"}})
	if err != nil {
		t.Fatal(err)
	}
	calls := []map[string]any{
		{"url": "https://x.test/a", "headers": map[string]any{"Authorization": "Bearer SECRETTOKEN", "Accept": "text/html"}},
		{"cursor": "CURSOR-SECRET-1"},
	}
	seq := int64(1)
	for i, args := range calls {
		id := "call_" + string(rune('a'+i))
		for _, e := range []*events.Envelope{
			{Type: events.ToolCall, Payload: events.ToolCallP{CallID: id, Name: webfetch.Name, ToolID: webfetch.Name, Arguments: args}},
			{Type: events.ToolResult, Payload: events.ToolResultP{CallID: id, Name: webfetch.Name, OK: true}},
		} {
			e.Seq, e.RunID, e.SessionID = seq, b.RunID(), b.SessionID()
			seq++
			if err := b.WriteEvent(e, []byte("{}\n")); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The rows are written with the journal, by the run's end at the latest.
	if err := b.lease.Finish(ctx, "completed", 0, nil); err != nil {
		t.Fatal(err)
	}
	rows, _, err := st.ListAudit(ctx, "tool", 10, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("%d tool audit rows, want 2", len(rows))
	}
	all := string(rows[0].Data) + string(rows[1].Data)
	for _, secret := range []string{"SECRETTOKEN", "CURSOR-SECRET-1"} {
		if strings.Contains(all, secret) {
			t.Errorf("audit keeps %s: %s", secret, all)
		}
	}
	for _, kept := range []string{`"Authorization":"[redacted]"`, `"Accept":"text/html"`, `"url":"https://x.test/a"`, `"cursor":"[omitted]"`} {
		if !strings.Contains(all, kept) {
			t.Errorf("audit lacks %s: %s", kept, all)
		}
	}
}
