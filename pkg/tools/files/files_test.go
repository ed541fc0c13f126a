package files

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tavo-cli/tavo/pkg/files"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/tools"
	"github.com/tavo-cli/tavo/pkg/tools/toolstest"
)

// harness runs file tool calls through a real executor, so schema
// validation, the envelope and the budgets apply as in a run.
type harness struct {
	t       *testing.T
	dataDir string
	store   *files.Store
	x       *tools.Executor
	env     *tools.Env
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	dir := t.TempDir()
	s := files.Open(dir)
	cat, err := tools.NewCatalog(All(s)...)
	if err != nil {
		t.Fatal(err)
	}
	return &harness{
		t: t, dataDir: dir, store: s,
		x:   &tools.Executor{Catalog: cat, Budget: tools.NewBudget(0, 1<<30)},
		env: &tools.Env{RunID: "run_1", SessionID: "ses_A", Catalog: cat},
	}
}

// envelope is a decoded result envelope.
type envelope = toolstest.Envelope

// call runs one call and decodes its envelope; the envelope must never show
// the data directory.
func (h *harness) call(env *tools.Env, name, args string) envelope {
	h.t.Helper()
	out := h.x.Execute(context.Background(), env, providers.ToolCall{ID: "c1", Name: name, Arguments: args})
	return toolstest.Decode(h.t, name, out.Envelope, h.dataDir)
}

func (h *harness) ok(name, args string) envelope {
	h.t.Helper()
	e := h.call(h.env, name, args)
	if !e.OK {
		h.t.Fatalf("%s %s: %+v", name, args, e.Error)
	}
	return e
}

// fail expects an error envelope with code and, when path is not "-",
// details.path equal to path.
func (h *harness) fail(env *tools.Env, name, args, code, path string) envelope {
	h.t.Helper()
	e := h.call(env, name, args)
	if e.OK || e.Error == nil || e.Error.Code != code {
		h.t.Fatalf("%s %s: got %+v, want %s", name, args, e, code)
	}
	if path != "-" && e.Error.Details["path"] != path {
		h.t.Fatalf("%s %s: details %v, want path %q", name, args, e.Error.Details, path)
	}
	return e
}

func (h *harness) text(e envelope) string {
	h.t.Helper()
	var s string
	if err := json.Unmarshal(e.Result, &s); err != nil {
		h.t.Fatalf("result is not a string: %s", e.Result)
	}
	return s
}

func TestSpecs(t *testing.T) {
	names := []string{SaveName, LoadName, DeleteName, ExistsName, ListName}
	for i, tool := range All(files.Open(t.TempDir())) {
		s := tool.Spec()
		if s.Name != names[i] || s.ID != s.Name || s.Resident || s.NeedsConfirm || s.Source != tools.SourceBuiltin {
			t.Errorf("spec %d = %+v", i, s)
		}
		if err := tools.CheckTool(tool); err != nil {
			t.Errorf("%s: %v", s.Name, err)
		}
		if len(s.Description) < 80 {
			t.Errorf("%s: description too thin: %q", s.Name, s.Description)
		}
	}
}

func TestSaveListLoadExistsDelete(t *testing.T) {
	h := newHarness(t)
	e := h.ok(SaveName, `{"name":"notes.txt","content":"saved by the model","options":{"scope":"chat","encoding":"utf8"}}`)
	var saved SaveResult
	json.Unmarshal(e.Result, &saved)
	if saved.Path != "chat/notes.txt" || saved.Size != 18 || saved.MIMEType != "text/plain" || saved.Overwritten {
		t.Fatalf("save result = %s", e.Result)
	}
	if !strings.Contains(string(e.Result), `"modifiedAt":"`) || !strings.Contains(string(e.Result), `Z"`) {
		t.Fatalf("modifiedAt not UTC: %s", e.Result)
	}
	e = h.ok(SaveName, `{"name":"notes.txt","content":"v2"}`)
	json.Unmarshal(e.Result, &saved)
	if !saved.Overwritten {
		t.Fatalf("second save not marked overwritten: %s", e.Result)
	}

	e = h.ok(ListName, `{"options":{"scope":"chat","limit":10}}`)
	var page files.Page
	json.Unmarshal(e.Result, &page)
	if len(page.Files) != 1 || page.Files[0].Path != "chat/notes.txt" || page.NextCursor != "" {
		t.Fatalf("list = %s", e.Result)
	}
	if strings.Contains(string(e.Result), "nextCursor") {
		t.Fatalf("a complete list carries nextCursor: %s", e.Result)
	}
	if got := h.text(h.ok(LoadName, `{"name":"notes.txt"}`)); got != "v2" {
		t.Fatalf("load = %q", got)
	}
	if e := h.ok(ExistsName, `{"name":"notes.txt"}`); !strings.Contains(string(e.Result), `"exists":true,"file":{"path":"chat/notes.txt"`) {
		t.Fatalf("exists = %s", e.Result)
	}
	if e := h.ok(DeleteName, `{"name":"notes.txt"}`); string(e.Result) != `{"deleted":true,"path":"chat/notes.txt"}` {
		t.Fatalf("delete = %s", e.Result)
	}
	if e := h.ok(ExistsName, `{"name":"notes.txt"}`); string(e.Result) != `{"exists":false}` {
		t.Fatalf("exists after delete = %s", e.Result)
	}
	h.fail(h.env, DeleteName, `{"name":"notes.txt"}`, tools.CodeResourceNotFound, "-")
	h.fail(h.env, LoadName, `{"name":"notes.txt"}`, tools.CodeResourceNotFound, "-")
}

func TestScopes(t *testing.T) {
	h := newHarness(t)
	h.ok(SaveName, `{"name":"a.txt","content":"chat A"}`)
	h.ok(SaveName, `{"name":"a.txt","content":"global","options":{"scope":"global"}}`)
	other := &tools.Env{RunID: "run_2", SessionID: "ses_B"}
	if e := h.call(other, LoadName, `{"name":"a.txt"}`); e.OK {
		t.Fatalf("session B reads session A's chat file: %s", e.Result)
	}
	if got := h.text(h.call(other, LoadName, `{"name":"a.txt","options":{"scope":"global"}}`)); got != "global" {
		t.Fatalf("global from B = %q", got)
	}
	if got := h.text(h.ok(LoadName, `{"name":"a.txt"}`)); got != "chat A" {
		t.Fatalf("chat from A = %q", got)
	}
	// A run without a session has no chat scope, but global works.
	none := &tools.Env{RunID: "run_3"}
	e := h.fail(none, SaveName, `{"name":"a.txt","content":"x"}`, tools.CodeInvalidArguments, "options.scope")
	if !strings.Contains(e.Error.Message, "global") {
		t.Fatalf("message does not point to global: %q", e.Error.Message)
	}
	h.call(none, ListName, `{"options":{"scope":"global"}}`)
	// A session ID that could escape is refused, never used as a folder.
	evil := &tools.Env{RunID: "run_4", SessionID: "../global"}
	h.fail(evil, ListName, `{}`, tools.CodeInvalidArguments, "options.scope")
}

func TestHostileArguments(t *testing.T) {
	h := newHarness(t)
	for _, name := range []string{"../x", "../../etc/passwd", "a/b", `a\\b`, "a:b", ".", "..", `a\u0000b`, `a\nb`, `a\u007fb`} {
		for _, tool := range []string{SaveName, LoadName, DeleteName, ExistsName} {
			args := fmt.Sprintf(`{"name":"%s","content":"x"}`, name)
			if tool != SaveName {
				args = fmt.Sprintf(`{"name":"%s"}`, name)
			}
			e := h.fail(h.env, tool, args, tools.CodeInvalidArguments, "name")
			if e.Error.Details["actualType"] != "string" || e.Error.Details["expected"] == "" {
				t.Fatalf("%s %s: details %v", tool, name, e.Error.Details)
			}
		}
	}
	for _, tc := range []struct{ tool, args, path string }{
		{SaveName, `{"name":"","content":"x"}`, "name"},
		{SaveName, `{"name":5,"content":"x"}`, "name"},
		{SaveName, `{"content":"x"}`, "name"},
		{SaveName, `{"name":"a"}`, "content"},
		{SaveName, `{"name":"a","content":"x","path":"/etc"}`, "path"},
		{SaveName, `{"name":"a","content":"x","options":{"mode":"0777"}}`, "options.mode"},
		{SaveName, `{"name":"a","content":"x","options":{"encoding":"hex"}}`, "options.encoding"},
		{SaveName, `{"name":"a","content":"x","options":{"scope":"shared"}}`, "options.scope"},
		{SaveName, `{"name":"a","content":"not base64!","options":{"encoding":"base64"}}`, "content"},
		{SaveName, `{"name":"a","content":"aGk","options":{"encoding":"dataUrl"}}`, "content"},
		{SaveName, `{"name":"a","content":"data:image/png;base64,@@","options":{"encoding":"dataUrl"}}`, "content"},
		{LoadName, `{"name":"a","options":{"encoding":"latin1"}}`, "options.encoding"},
		{DeleteName, `{"name":"a","options":{"encoding":"utf8"}}`, "options.encoding"},
		{ListName, `{"options":{"limit":0}}`, "options.limit"},
		{ListName, `{"options":{"limit":201}}`, "options.limit"},
		{ListName, `{"options":{"limit":"10"}}`, "options.limit"},
		{ListName, `{"options":{"cursor":""}}`, "options.cursor"},
		{ListName, `{"options":{"cursor":"forged"}}`, "options.cursor"},
		{ListName, `{"scope":"global"}`, "scope"},
	} {
		h.fail(h.env, tc.tool, tc.args, tools.CodeInvalidArguments, tc.path)
	}
	if ents, _ := os.ReadDir(h.dataDir); len(ents) != 0 {
		t.Fatalf("hostile calls wrote %v", ents)
	}
}

func TestBinaryFiles(t *testing.T) {
	h := newHarness(t)
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\x00"
	b64 := base64.StdEncoding.EncodeToString([]byte(png))
	e := h.ok(SaveName, `{"name":"pic","content":"`+b64+`","options":{"encoding":"base64"}}`)
	if !strings.Contains(string(e.Result), `"mimeType":"image/png"`) {
		t.Fatalf("save = %s", e.Result)
	}
	le := h.fail(h.env, LoadName, `{"name":"pic"}`, tools.CodeInvalidArguments, "options.encoding")
	if !strings.Contains(le.Error.Message, "base64 or dataUrl") {
		t.Fatalf("binary as utf8 message: %q", le.Error.Message)
	}
	if got := h.text(h.ok(LoadName, `{"name":"pic","options":{"encoding":"base64"}}`)); got != b64 {
		t.Fatalf("base64 load = %q", got)
	}
	if got := h.text(h.ok(LoadName, `{"name":"pic","options":{"encoding":"dataUrl"}}`)); got != "data:image/png;base64,"+b64 {
		t.Fatalf("dataUrl load = %q", got)
	}
	// A data URL saves its bytes; the name gives the type.
	h.ok(SaveName, `{"name":"x.json","content":"data:text/plain;base64,eyJhIjoxfQ==","options":{"encoding":"dataUrl","scope":"global"}}`)
	if got := h.text(h.ok(LoadName, `{"name":"x.json","options":{"scope":"global"}}`)); got != `{"a":1}` {
		t.Fatalf("data URL content = %q", got)
	}
}

func TestContentTooLarge(t *testing.T) {
	h := newHarness(t)
	h.store.MaxFileSize = 16
	e := h.fail(h.env, SaveName, `{"name":"big.txt","content":"`+strings.Repeat("x", 17)+`"}`, tools.CodeLimitExceeded, "content")
	if e.Error.Details["limitBytes"] != float64(16) {
		t.Fatalf("details = %v", e.Error.Details)
	}
	h.ok(SaveName, `{"name":"ok.txt","content":"`+strings.Repeat("x", 16)+`"}`)
}

func TestLargeTextLoadIsArchived(t *testing.T) {
	h := newHarness(t)
	big := strings.Repeat("é", 200<<10) // 400 KiB of two-byte runes
	if _, err := h.store.Save(context.Background(), files.Chat("ses_A"), "big.txt", []byte(big)); err != nil {
		t.Fatal(err)
	}
	out := h.x.Execute(context.Background(), h.env, providers.ToolCall{ID: "c", Name: LoadName, Arguments: `{"name":"big.txt"}`})
	if !out.OK || !out.Truncated || out.Artifact == "" || out.Bytes > tools.MaxResultBytes {
		t.Fatalf("ok %v truncated %v artifact %q bytes %d", out.OK, out.Truncated, out.Artifact, out.Bytes)
	}
	var env struct {
		Result struct {
			Preview  string `json:"preview"`
			Continue string `json:"continue"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(out.Envelope), &env); err != nil || !strings.HasPrefix(big, env.Result.Preview) || len(env.Result.Preview) < 20<<10 || env.Result.Continue == "" {
		t.Fatalf("preview of %d bytes, continue %q: %v", len(env.Result.Preview), env.Result.Continue, err)
	}
}

func TestLoadCapIsAboveTheBudget(t *testing.T) {
	// The tool cuts loads at maxLoadChars; that must stay above the result
	// budget, or a cut load would not be marked truncated.
	if maxLoadChars <= tools.MaxResultBytes {
		t.Fatalf("maxLoadChars %d ≤ MaxResultBytes %d", maxLoadChars, tools.MaxResultBytes)
	}
	data := []byte(strings.Repeat("€", maxLoadChars)) // 3 bytes each: the cut falls inside a rune
	s, err := encodePrefix(data, "text/plain", files.UTF8)
	if err != nil || len(s) > maxLoadChars || !utf8.ValidString(s) {
		t.Fatalf("utf8 prefix: %d bytes, valid %v, %v", len(s), utf8.ValidString(s), err)
	}
	s, _ = encodePrefix(data, "text/plain", files.Base64)
	if len(s) > maxLoadChars || len(s) < maxLoadChars-4 {
		t.Fatalf("base64 prefix: %d chars", len(s))
	}
	// The whole file decides whether it is text.
	bin := append([]byte(strings.Repeat("a", maxLoadChars+10)), 0xff)
	if _, err := encodePrefix(bin, "", files.UTF8); err == nil {
		t.Fatal("binary tail after the cap was not noticed")
	}
}

func TestHugeListingBecomesPreview(t *testing.T) {
	h := newHarness(t)
	dir := filepath.Join(h.dataDir, "files", "global")
	os.MkdirAll(dir, 0o700)
	for i := 0; i < 200; i++ {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("%03d-%s.txt", i, strings.Repeat("n", 240))), []byte("x"), 0o600)
	}
	out := h.x.Execute(context.Background(), h.env, providers.ToolCall{ID: "c", Name: ListName, Arguments: `{"options":{"scope":"global","limit":200}}`})
	if !out.OK || !out.Truncated || out.Bytes > tools.MaxResultBytes {
		t.Fatalf("ok %v truncated %v bytes %d", out.OK, out.Truncated, out.Bytes)
	}
	var r struct {
		Truncated bool   `json:"truncated"`
		Preview   string `json:"preview"`
	}
	if err := json.Unmarshal(out.Result.(json.RawMessage), &r); err != nil || !r.Truncated || !strings.HasPrefix(r.Preview, `{"files":[{"path":"global/000-`) {
		t.Fatalf("result = %.200s", out.Result)
	}
	// A smaller page fits.
	e := h.ok(ListName, `{"options":{"scope":"global","limit":20}}`)
	if !strings.Contains(string(e.Result), `"nextCursor":"`) {
		t.Fatalf("page of 20 = %.200s", e.Result)
	}
}

func TestCursorsStayInTheirScope(t *testing.T) {
	h := newHarness(t)
	for _, n := range []string{"a", "b", "c"} {
		h.ok(SaveName, `{"name":"`+n+`","content":"x"}`)
		h.ok(SaveName, `{"name":"`+n+`","content":"x","options":{"scope":"global"}}`)
	}
	var chat, global files.Page
	json.Unmarshal(h.ok(ListName, `{"options":{"limit":1}}`).Result, &chat)
	json.Unmarshal(h.ok(ListName, `{"options":{"limit":1,"scope":"global"}}`).Result, &global)
	if chat.NextCursor == "" || global.NextCursor == "" {
		t.Fatal("no cursors")
	}
	h.fail(h.env, ListName, `{"options":{"cursor":"`+global.NextCursor+`"}}`, tools.CodeInvalidArguments, "options.cursor")
	h.fail(h.env, ListName, `{"options":{"scope":"global","cursor":"`+chat.NextCursor+`"}}`, tools.CodeInvalidArguments, "options.cursor")
	other := &tools.Env{RunID: "run_2", SessionID: "ses_B"}
	h.fail(other, ListName, `{"options":{"cursor":"`+chat.NextCursor+`"}}`, tools.CodeInvalidArguments, "options.cursor")
	var next files.Page
	json.Unmarshal(h.ok(ListName, `{"options":{"limit":1,"cursor":"`+chat.NextCursor+`"}}`).Result, &next)
	if len(next.Files) != 1 || next.Files[0].Name != "b" {
		t.Fatalf("next page = %+v", next)
	}
}

func TestRunBudget(t *testing.T) {
	h := newHarness(t)
	// Each load is archived and shows a page of about 30 KB.
	h.x.Budget = tools.NewBudget(0, 40<<10)
	h.store.Save(context.Background(), files.Chat("ses_A"), "big.txt", []byte(strings.Repeat("x", 200<<10)))
	h.ok(LoadName, `{"name":"big.txt"}`)
	h.fail(h.env, LoadName, `{"name":"big.txt"}`, tools.CodeResultTooLarge, "-")
}

// A file store that cannot be written is one clear internal_error that
// says why, naming no path on disk (call checks the envelope for the data
// dir).
func TestUnwritableStoreIsOneClearLine(t *testing.T) {
	h := newHarness(t)
	if err := os.WriteFile(filepath.Join(h.dataDir, "files"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	e := h.fail(h.env, SaveName, `{"name":"a.txt","content":"hi"}`, tools.CodeInternalError, "-")
	if want := "creating the chat folder: the file store cannot be written (not a directory)"; e.Error.Message != want {
		t.Fatalf("message %q, want %q", e.Error.Message, want)
	}
	e = h.fail(h.env, ListName, `{}`, tools.CodeInternalError, "-")
	if !strings.Contains(e.Error.Message, "the file store cannot be read (not a directory)") {
		t.Fatalf("list: %q", e.Error.Message)
	}
}
