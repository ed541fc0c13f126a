package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// clock is a manual clock for deterministic ordering.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock {
	return &clock{t: time.Date(2026, 11, 29, 15, 0, 0, 0, time.UTC)}
}

// now returns the time and advances it by a millisecond.
func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Millisecond)
	return c.t
}

// openTest opens a store in a new temporary data dir, with a manual clock
// and fast journal and cancel polling.
func openTest(t testing.TB) (*Store, *clock) {
	t.Helper()
	return openAt(t, filepath.Join(t.TempDir(), "data"))
}

func openAt(t testing.TB, dir string) (*Store, *clock) {
	t.Helper()
	s, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	c := newClock()
	s.now = c.now
	s.flushEvery = 5 * time.Millisecond
	s.pollEvery = 5 * time.Millisecond
	t.Cleanup(func() { s.Close() })
	return s, c
}

func mustSession(t testing.TB, s *Store, id string) *Session {
	t.Helper()
	ss, err := s.CreateSession(context.Background(), id, "title of "+id)
	if err != nil {
		t.Fatal(err)
	}
	return ss
}

func mustBegin(t testing.TB, s *Store, runID, sessionID string) *Lease {
	t.Helper()
	l, err := s.BeginRun(context.Background(), runID, sessionID, RunMeta{Profile: "p", Provider: "openai", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func userMsg(text string) providers.Message {
	return providers.Message{Role: providers.RoleUser, Parts: []providers.Part{{Type: providers.PartText, Text: text}}}
}

func assistantCall(text, callID string) providers.Message {
	return providers.Message{Role: providers.RoleAssistant, Parts: []providers.Part{
		{Type: providers.PartReasoning, Reasoning: &providers.Reasoning{Protocol: providers.ProtocolAnthropic, Text: "thinking…", Signature: "sig"}},
		{Type: providers.PartText, Text: text},
		{Type: providers.PartToolCall, ToolCall: &providers.ToolCall{ID: callID, Name: "tavo_web_fetch", Arguments: `{"url":"https://example.com"}`}},
	}}
}

func toolResult(callID, content string) providers.Message {
	return providers.Message{Role: providers.RoleTool, Parts: []providers.Part{
		{Type: providers.PartToolResult, ToolResult: &providers.ToolResult{CallID: callID, Name: "tavo_web_fetch", Content: content}},
	}}
}

// eventLine makes an NDJSON line like the emitter's.
func eventLine(runID string, seq int64, typ string) []byte {
	b, _ := json.Marshal(map[string]any{"v": 1, "seq": seq, "run_id": runID, "type": typ, "payload": map[string]any{"n": seq}})
	return append(b, '\n')
}

func wantErr(t testing.TB, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("error %v, want %v", err, target)
	}
}

func ctxb() context.Context { return context.Background() }

func countRows(t testing.TB, s *Store, q string, args ...any) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow(q, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

func seqs(msgs []Message) string {
	out := ""
	for i, m := range msgs {
		if i > 0 {
			out += ","
		}
		out += fmt.Sprint(m.Seq)
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

func msgsOf(m ...providers.Message) []providers.Message { return m }

func readDirNames(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names, err
}
