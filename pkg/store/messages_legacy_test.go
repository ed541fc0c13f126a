package store

import (
	"bytes"
	"os"
	"reflect"
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// legacyMessages are the messages testdata/legacy_messages.jsonl holds: the
// data column of their rows as the store wrote them before a Message
// decoded itself (commit 8b74dd6), one row a line. Every part type is
// there, with HTML characters, escapes, non-ASCII text, U+2028, a control
// byte, an image and nil and empty parts.
func legacyMessages() []providers.Message {
	return []providers.Message{
		{Role: providers.RoleUser, Parts: []providers.Part{{Type: providers.PartText, Text: "Why does <build> fail & what's \"wrong\"?\nLine two\ttabbed — ünïcödé 日本語 🙂 \u2028 \x01"}}},
		{Role: providers.RoleAssistant, Parts: []providers.Part{
			{Type: providers.PartReasoning, Reasoning: &providers.Reasoning{Protocol: providers.ProtocolAnthropic, Text: "Check the log first.", Signature: "c2lnbmF0dXJl"}},
			{Type: providers.PartReasoning, Reasoning: &providers.Reasoning{Protocol: providers.ProtocolOpenAIResponses, ID: "rs_1", Encrypted: "ZW5j"}},
			{Type: providers.PartReasoning, Reasoning: &providers.Reasoning{Protocol: providers.ProtocolAnthropic, Redacted: "cmVkYWN0ZWQ="}},
			{Type: providers.PartText, Text: "Let me fetch it."},
			{Type: providers.PartToolCall, ToolCall: &providers.ToolCall{ID: "call_1", Name: "tavo_web_fetch", Arguments: `{"url":"https://example.com/log?a=1&b=<2>"}`, Signature: "Z2VtaW5p"}},
			{Type: providers.PartToolCall, ToolCall: &providers.ToolCall{ID: "call_2", Name: "tavo_var_get", Arguments: `not json`}},
		}},
		{Role: providers.RoleTool, Parts: []providers.Part{
			{Type: providers.PartToolResult, ToolResult: &providers.ToolResult{CallID: "call_1", Name: "tavo_web_fetch", Content: `{"ok":true,"result":{"markdown":"# Log\n\nstep 3 failed"}}`}},
			{Type: providers.PartToolResult, ToolResult: &providers.ToolResult{CallID: "call_2", Name: "tavo_var_get", Content: `{"ok":false,"error":{"code":"resource_not_found"}}`, IsError: true}},
		}},
		{Role: providers.RoleUser, Parts: []providers.Part{
			{Type: providers.PartImage, Image: &providers.Image{MIMEType: "image/png", Data: []byte("\x89PNG\r\n\x1a\n\x00\x01")}},
			{Type: providers.PartImage, Image: &providers.Image{MIMEType: "image/jpeg", URL: "https://example.com/a.jpg"}},
			{Type: providers.PartText, Text: ""},
		}},
		{Role: providers.RoleAssistant, Parts: []providers.Part{}},
		{Role: providers.RoleAssistant},
	}
}

// TestLegacyRowsStillRead: rows written by the old code read back as the
// messages they were, and the store still writes exactly those bytes, so
// databases old and new hold one format.
func TestLegacyRowsStillRead(t *testing.T) {
	raw, err := os.ReadFile("testdata/legacy_messages.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	rows := bytes.Split(bytes.TrimSuffix(raw, []byte("\n")), []byte("\n"))
	want := legacyMessages()
	if len(rows) != len(want) {
		t.Fatalf("%d rows, %d messages", len(rows), len(want))
	}
	s, _ := openTest(t)
	mustSession(t, s, "ses_old")
	for i, row := range rows {
		if _, err := s.db.Exec(`INSERT INTO messages (session_id, seq, run_id, round, role, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			"ses_old", i+1, "run_old", 1, string(want[i].Role), string(row), 1); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.db.Exec(`UPDATE sessions SET last_seq = ?, messages = ? WHERE id = 'ses_old'`, len(rows), len(rows)); err != nil {
		t.Fatal(err)
	}
	h, err := s.History(ctxb(), "ses_old", 1)
	if err != nil || len(h) != len(want) {
		t.Fatalf("history: %d messages, %v", len(h), err)
	}
	for i := range want {
		if !reflect.DeepEqual(h[i].Message, want[i]) {
			t.Errorf("row %d read back as\n%#v\nwant\n%#v", i+1, h[i].Message, want[i])
		}
	}

	mustSession(t, s, "ses_new")
	if _, err := s.AppendMessages(ctxb(), "ses_new", "run_new", 1, want); err != nil {
		t.Fatal(err)
	}
	got, err := s.db.Query(`SELECT data FROM messages WHERE session_id = 'ses_new' ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Close()
	for i := 0; got.Next(); i++ {
		var data string
		if err := got.Scan(&data); err != nil {
			t.Fatal(err)
		}
		if data != string(rows[i]) {
			t.Errorf("message %d is now stored as\n%s\nwhere the old code wrote\n%s", i+1, data, rows[i])
		}
	}
}
