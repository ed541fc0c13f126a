package tools

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/tavo-cli/tavo/pkg/resources"
	"strings"
	"testing"
	"time"
)

func execute(t *testing.T, x *Executor, env *Env, name, args string) Outcome {
	t.Helper()
	return x.Execute(context.Background(), env, call(name, args))
}

func TestExecuteEnvelopes(t *testing.T) {
	var typedNil *Error
	c := mustCatalog(t,
		returning("text", "hello \"you\" <b>", nil),
		returning("obj", map[string]any{"b": "<x>", "a": 1}, nil),
		returning("raw", json.RawMessage(`{ "a" : [1, 2] }`), nil),
		returning("bytes_json", []byte(`[true]`), nil),
		returning("bytes_text", []byte(`not json`), nil),
		returning("nothing", nil, nil),
		returning("fail", nil, &Error{Code: CodeResourceNotFound, Message: "no file named a.txt", Details: map[string]any{"name": "a.txt"}}),
		returning("fail_plain", nil, Errorf(CodePermissionDenied, "denied")),
		returning("fail_empty_details", nil, &Error{Code: CodeLimitExceeded, Message: "too many", Details: map[string]any{}}),
		returning("leak", nil, errors.New("open /home/me/secret: permission denied")),
		returning("typed_nil", nil, typedNil),
		returning("unencodable", make(chan int), nil),
	)
	x := &Executor{Catalog: c, Budget: NewBudget(0, 0)}
	tests := []struct {
		tool, envelope string
		ok             bool
		bytes          int
	}{
		{"text", `{"ok":true,"result":"hello \"you\" <b>"}`, true, 19},
		{"obj", `{"ok":true,"result":{"a":1,"b":"<x>"}}`, true, 17},
		{"raw", `{"ok":true,"result":{"a":[1,2]}}`, true, 11},
		{"bytes_json", `{"ok":true,"result":[true]}`, true, 6},
		{"bytes_text", `{"ok":true,"result":"not json"}`, true, 10},
		{"nothing", `{"ok":true,"result":null}`, true, 4},
		{"fail", `{"ok":false,"error":{"code":"resource_not_found","message":"no file named a.txt","details":{"name":"a.txt"}}}`, false, 0},
		{"fail_plain", `{"ok":false,"error":{"code":"permission_denied","message":"denied"}}`, false, 0},
		{"fail_empty_details", `{"ok":false,"error":{"code":"limit_exceeded","message":"too many"}}`, false, 0},
		{"leak", `{"ok":false,"error":{"code":"internal_error","message":"the tool failed unexpectedly"}}`, false, 0},
		{"typed_nil", `{"ok":false,"error":{"code":"internal_error","message":"the tool failed unexpectedly"}}`, false, 0},
		{"unencodable", `{"ok":false,"error":{"code":"internal_error","message":"the tool's result could not be encoded as JSON"}}`, false, 0},
	}
	for _, tt := range tests {
		out := execute(t, x, nil, tt.tool, `{}`)
		if out.Envelope != tt.envelope {
			t.Errorf("%s: envelope\n got %s\nwant %s", tt.tool, out.Envelope, tt.envelope)
		}
		if out.OK != tt.ok || out.Bytes != tt.bytes || out.ToolID != tt.tool {
			t.Errorf("%s: ok=%v bytes=%d id=%q, want ok=%v bytes=%d", tt.tool, out.OK, out.Bytes, out.ToolID, tt.ok, tt.bytes)
		}
		if out.OK == (out.Err != nil) {
			t.Errorf("%s: OK %v with Err %v", tt.tool, out.OK, out.Err)
		}
	}
	if out := execute(t, x, nil, "text", `{}`); out.Result != "hello \"you\" <b>" {
		t.Errorf("text Result = %#v", out.Result)
	}
	if out := execute(t, x, nil, "obj", `{}`); string(out.Result.(json.RawMessage)) != `{"a":1,"b":"<x>"}` {
		t.Errorf("structured Result = %#v", out.Result)
	}
}

// readOn reads a truncated result back through its continue URLs.
func readOn(t *testing.T, c *resources.Centre, env *Env, tr resources.Truncated) string {
	t.Helper()
	var all strings.Builder
	all.WriteString(tr.Preview)
	for url := tr.Continue; url != ""; {
		r, err := c.Read(context.Background(), resources.Request{URL: url, Scope: resources.Scope{SessionID: env.SessionID}})
		if err != nil {
			t.Fatalf("%s: %v", url, err)
		}
		all.WriteString(r.(*resources.Text).Text)
		url = r.(*resources.Text).Continue
	}
	return all.String()
}

func TestExecuteOversizedTextIsArchived(t *testing.T) {
	// Over 64 KiB, and a 4-byte rune straddles the old cut point.
	text := strings.Repeat("a", MaxResultBytes-4) + "éé€😀" + strings.Repeat("漢字\n", 40000)
	c := mustCatalog(t, returning("big", text, nil))
	centre := resources.New(nil)
	c.SetResources(centre)
	x := &Executor{Catalog: c, Budget: NewBudget(0, 0)}
	env := &Env{SessionID: "ses_1", RunID: "run_1"}
	out := x.Execute(context.Background(), env, call("big", ""))
	if !out.OK || !out.Truncated || !strings.HasPrefix(out.Artifact, "artifact://art_") {
		t.Fatalf("ok=%v truncated=%v artifact=%q %v", out.OK, out.Truncated, out.Artifact, out.Err)
	}
	var env2 struct {
		OK     bool                `json:"ok"`
		Result resources.Truncated `json:"result"`
	}
	if err := json.Unmarshal([]byte(out.Envelope), &env2); err != nil || !env2.Result.Truncated || env2.Result.Artifact != out.Artifact {
		t.Fatalf("envelope %.200s: %v", out.Envelope, err)
	}
	if !resources.DefaultBudget().Fits(env2.Result.Preview) || !strings.HasPrefix(env2.Result.Continue, out.Artifact+"?offset=") {
		t.Fatalf("preview over budget or continue %q", env2.Result.Continue)
	}
	if got := readOn(t, centre, env, env2.Result); got != text {
		t.Fatalf("read back %d bytes, want %d", len(got), len(text))
	}
}

func TestExecuteOversizedStructuredIsArchived(t *testing.T) {
	items := make([]map[string]string, 0, 3000)
	for i := range 3000 {
		items = append(items, map[string]string{"name": "file-" + strings.Repeat("é", i%7), "path": `a\b"c`})
	}
	full, _ := encodeJSON(map[string]any{"files": items})
	c := mustCatalog(t, returning("list", map[string]any{"files": items}, nil))
	x := &Executor{Catalog: c, Budget: NewBudget(0, 0)}
	env := &Env{SessionID: "ses_1"}
	out := x.Execute(context.Background(), env, call("list", ""))
	if !out.OK || !out.Truncated || out.Bytes > MaxResultBytes+4096 {
		t.Fatalf("ok=%v truncated=%v bytes=%d", out.OK, out.Truncated, out.Bytes)
	}
	var e struct {
		Result resources.Truncated `json:"result"`
	}
	if err := json.Unmarshal([]byte(out.Envelope), &e); err != nil || !strings.HasPrefix(out.Envelope, `{"ok":true,"result":{"truncated":true,"artifact":"artifact://`) {
		t.Fatalf("envelope %.120s: %v", out.Envelope, err)
	}
	// Without a centre on the catalog the executor keeps one in memory.
	if got := readOn(t, x.resources(), env, e.Result); got != string(full) {
		t.Fatal("the archived JSON differs from the result")
	}
}

func TestExecuteSmallResultIsNotArchived(t *testing.T) {
	c := mustCatalog(t, returning("small", strings.Repeat("line\n", 1999), nil))
	out := (&Executor{Catalog: c}).Execute(context.Background(), &Env{}, call("small", ""))
	if !out.OK || out.Truncated || out.Artifact != "" {
		t.Fatalf("%+v", out)
	}
	// 2001 short lines pass the line budget.
	c = mustCatalog(t, returning("lines", strings.Repeat("l\n", 2001), nil))
	if out := (&Executor{Catalog: c}).Execute(context.Background(), &Env{}, call("lines", "")); !out.Truncated {
		t.Fatal("2001 lines were not archived")
	}
}

func TestExecuteRunBudget(t *testing.T) {
	c := mustCatalog(t,
		returning("eighty", strings.Repeat("x", 78), nil), // 80 bytes of JSON
		returning("twenty", strings.Repeat("y", 18), nil),
		returning("fail", nil, Errorf(CodeResourceNotFound, "gone")),
	)
	b := NewBudget(100, 150)
	x := &Executor{Catalog: c, Budget: b}
	if out := execute(t, x, nil, "eighty", ""); !out.OK || b.Remaining() != 70 {
		t.Fatalf("first: ok=%v remaining=%d", out.OK, b.Remaining())
	}
	out := execute(t, x, nil, "eighty", "")
	if out.OK || out.Err.Code != CodeResultTooLarge || b.Remaining() != 70 {
		t.Fatalf("second: %+v remaining=%d", out.Err, b.Remaining())
	}
	if out.Err.Details["remainingBytes"] != 70 || out.Err.Details["resultBytes"] != 80 {
		t.Fatalf("details %v", out.Err.Details)
	}
	if out := execute(t, x, nil, "fail", ""); out.Err.Code != CodeResourceNotFound || b.Remaining() != 70 {
		t.Fatal("an error envelope consumed budget")
	}
	for range 3 {
		if out := execute(t, x, nil, "twenty", ""); !out.OK {
			t.Fatalf("small result refused: %v", out.Err)
		}
	}
	if out := execute(t, x, nil, "twenty", ""); out.OK || b.Remaining() != 10 || b.Used() != 140 {
		t.Fatalf("budget overrun: remaining %d", b.Remaining())
	}
}

func TestExecuteTimeoutIgnoringContext(t *testing.T) {
	block := make(chan struct{})
	t.Cleanup(func() { close(block) })
	ctxs := make(chan context.Context, 1)
	c := mustCatalog(t, newTool("stuck", func(ctx context.Context, _ *Call) (any, error) {
		ctxs <- ctx
		<-block // ignores ctx on purpose
		return "late", nil
	}))
	x := &Executor{Catalog: c, Timeout: time.Millisecond}
	out := execute(t, x, nil, "stuck", "")
	if out.OK || out.Err.Code != CodeTimeout {
		t.Fatalf("got %+v", out)
	}
	if !strings.Contains(out.Err.Message, "result is unknown") || !strings.Contains(out.Err.Message, "not re-run") {
		t.Fatalf("message %q", out.Err.Message)
	}
	if ctx := <-ctxs; ctx.Err() == nil {
		t.Fatal("the timed-out tool's context was not cancelled")
	}
}

func TestExecuteTimeoutFakeClock(t *testing.T) {
	fc := newFakeClock()
	started := make(chan struct{})
	c := mustCatalog(t, newTool("slow", func(ctx context.Context, _ *Call) (any, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	}))
	x := &Executor{Catalog: c, Timeout: 10 * time.Second, clock: fc}
	done := make(chan Outcome)
	go func() { done <- execute(t, x, nil, "slow", "") }()
	<-started
	fc.Advance(9 * time.Second)
	if fc.Fired() != 0 {
		t.Fatal("timer fired early")
	}
	fc.Advance(time.Second)
	out := <-done
	if out.Err == nil || out.Err.Code != CodeTimeout || !strings.Contains(out.Err.Message, "10 seconds") {
		t.Fatalf("got %+v", out.Err)
	}
}

func TestExecutePauseExcludesPersonTime(t *testing.T) {
	fc := newFakeClock()
	paused, proceed, resumed, finish := make(chan struct{}), make(chan struct{}), make(chan struct{}), make(chan struct{})
	c := mustCatalog(t, newTool("ask", func(ctx context.Context, call *Call) (any, error) {
		resume := call.Env.WaitForPerson()
		close(paused)
		<-proceed
		resume()
		resume() // a second call must not resume twice
		close(resumed)
		select {
		case <-finish:
			return "answered", nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}))
	x := &Executor{Catalog: c, Timeout: 10 * time.Second, clock: fc}
	done := make(chan Outcome)
	go func() { done <- execute(t, x, nil, "ask", "") }()

	<-paused
	fc.Advance(time.Hour) // the person takes an hour
	close(proceed)
	<-resumed
	fc.Advance(9 * time.Second) // still within the 10 s of tool time
	if fc.Fired() != 0 {
		t.Fatal("time spent waiting for the person counted")
	}
	close(finish)
	if out := <-done; !out.OK || out.Result != "answered" {
		t.Fatalf("got %+v", out)
	}
}

func TestExecutePauseThenTimeout(t *testing.T) {
	fc := newFakeClock()
	resumed := make(chan struct{})
	c := mustCatalog(t, newTool("ask", func(ctx context.Context, call *Call) (any, error) {
		fc.Advance(4 * time.Second) // tool work before asking
		resume := call.Env.WaitForPerson()
		fc.Advance(time.Hour)
		resume()
		close(resumed)
		<-ctx.Done()
		return nil, ctx.Err()
	}))
	x := &Executor{Catalog: c, Timeout: 10 * time.Second, clock: fc}
	done := make(chan Outcome)
	go func() { done <- execute(t, x, nil, "ask", "") }()
	<-resumed
	fc.Advance(5 * time.Second) // 9 s of tool time
	if fc.Fired() != 0 {
		t.Fatal("fired after 9 s of tool time")
	}
	fc.Advance(time.Second)
	if out := <-done; out.Err == nil || out.Err.Code != CodeTimeout {
		t.Fatalf("got %+v", out)
	}
}

func TestCallTimerNestedPauses(t *testing.T) {
	fc := newFakeClock()
	ct := startCallTimer(fc, 10*time.Second)
	r1 := ct.pause()
	r2 := ct.pause()
	fc.Advance(time.Minute)
	r1()
	r1()
	fc.Advance(time.Minute) // still paused by r2
	select {
	case <-ct.expired:
		t.Fatal("expired while a pause was still open")
	default:
	}
	r2()
	fc.Advance(10 * time.Second)
	select {
	case <-ct.expired:
	default:
		t.Fatal("did not expire after the pauses ended")
	}
}

func TestExecutePanic(t *testing.T) {
	c := mustCatalog(t, newTool("boom", func(context.Context, *Call) (any, error) { panic("secret /etc/path") }))
	out := execute(t, &Executor{Catalog: c}, nil, "boom", "")
	if out.Err == nil || out.Err.Code != CodeInternalError || strings.Contains(out.Envelope, "secret") {
		t.Fatalf("got %s", out.Envelope)
	}
}

func TestExecuteUnknownAndInvisible(t *testing.T) {
	ran := false
	ext := newTool("ext_tool", func(context.Context, *Call) (any, error) { ran = true; return "x", nil })
	ext.spec.ID = "extension/e:ext_tool"
	ext.spec.Source = SourceCommand
	c := mustCatalog(t, newTool("tavo_file_list", func(context.Context, *Call) (any, error) { ran = true; return "x", nil }), ext)
	x := &Executor{Catalog: c}
	env := &Env{Visibility: NewVisibility("other")}

	out := execute(t, x, env, "no_such_tool", "")
	if out.Err.Code != CodeUnknownTool || out.ToolID != "" || strings.Contains(out.Err.Message, "tavo_tool_search") {
		t.Fatalf("unknown: %s", out.Envelope)
	}
	out = execute(t, x, env, "tavo_file_list", "")
	if out.Err.Code != CodeUnknownTool || !strings.Contains(out.Err.Message, "tavo_tool_search") || out.ToolID != "tavo_file_list" {
		t.Fatalf("invisible builtin: %s", out.Envelope)
	}
	out = execute(t, x, env, "ext_tool", "")
	if out.Err.Code != CodeUnknownTool || !strings.Contains(out.Err.Message, "extension_tool_search") {
		t.Fatalf("invisible extension: %s", out.Envelope)
	}
	if ran {
		t.Fatal("an invisible tool ran")
	}
	env.Visibility.Reveal("tavo_file_list")
	if out := execute(t, x, env, "tavo_file_list", ""); out.OK {
		t.Fatal("callable before the next round")
	}
	env.Visibility.Advance()
	if out := execute(t, x, env, "tavo_file_list", ""); !out.OK {
		t.Fatalf("not callable after Advance: %s", out.Envelope)
	}
	if out := execute(t, &Executor{}, nil, "x", ""); out.Err.Code != CodeUnknownTool {
		t.Fatal("nil catalog")
	}
}

func TestExecuteInvalidArgumentsDoesNotRun(t *testing.T) {
	ran := false
	ft := newTool("strict", func(context.Context, *Call) (any, error) { ran = true; return nil, nil })
	ft.spec.Parameters = json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"additionalProperties":false}`)
	out := execute(t, &Executor{Catalog: mustCatalog(t, ft)}, nil, "strict", `{"n":"1"}`)
	want := `{"ok":false,"error":{"code":"invalid_arguments","message":"argument n must be integer, got string \"1\".","details":{"actualType":"string","expected":"integer","path":"n"}}}`
	if ran || out.Envelope != want {
		t.Fatalf("ran=%v envelope\n got %s\nwant %s", ran, out.Envelope, want)
	}
}

func TestExecuteCancellation(t *testing.T) {
	block := make(chan struct{})
	t.Cleanup(func() { close(block) })
	started := make(chan struct{})
	c := mustCatalog(t,
		newTool("stuck", func(context.Context, *Call) (any, error) { close(started); <-block; return nil, nil }),
		newTool("polite", func(ctx context.Context, _ *Call) (any, error) { <-ctx.Done(); return nil, ctx.Err() }),
	)
	x := &Executor{Catalog: c}

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan Outcome)
	go func() { done <- x.Execute(ctx, nil, call("stuck", "")) }()
	<-started
	cancel()
	if out := <-done; out.Err == nil || out.Err.Code != CodeCancelled {
		t.Fatalf("stuck: %+v", out)
	}
	// A tool that returns its context error after the run was cancelled.
	ctx2, cancel2 := context.WithCancel(context.Background())
	cancel2()
	if out := x.Execute(ctx2, nil, call("polite", "")); out.Err == nil || out.Err.Code != CodeCancelled {
		t.Fatalf("polite: %+v", out)
	}
}

func TestExecuteInputRequired(t *testing.T) {
	c := mustCatalog(t, returning("asker", nil, errors.Join(errors.New("ask"), ErrInputRequired)))
	out := execute(t, &Executor{Catalog: c}, nil, "asker", "")
	if !out.InputRequired || out.OK || out.Err == nil || out.Envelope == "" {
		t.Fatalf("got %+v", out)
	}
}

func TestExecuteEnvIsPerCall(t *testing.T) {
	var seen *Env
	c := mustCatalog(t, newTool("peek", func(_ context.Context, call *Call) (any, error) {
		seen = call.Env
		return call.Env.RunID + "/" + call.ID + "/" + string(call.Args), nil
	}))
	env := &Env{RunID: "run1"}
	out := (&Executor{Catalog: c}).Execute(context.Background(), env, call("peek", ` {"a":1} `))
	if out.Result != `run1/call_1/{"a":1}` {
		t.Fatalf("result %v", out.Result)
	}
	if seen == env || env.pause != nil {
		t.Fatal("the caller's Env was modified")
	}
}

func BenchmarkExecute(b *testing.B) {
	ft := newTool("echo", func(_ context.Context, call *Call) (any, error) { return map[string]any{"ok": 1}, nil })
	ft.spec.Parameters = json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"],"additionalProperties":false}`)
	ex := &Executor{Catalog: mustCatalog(b, ft), Budget: NewBudget(0, 1<<62)}
	env := &Env{Visibility: NewVisibility("echo")}
	tc := call("echo", `{"q":"hello"}`)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if out := ex.Execute(ctx, env, tc); !out.OK {
			b.Fatal(out.Envelope)
		}
	}
}

// BenchmarkCompileSchema is the one-time cost of compiling a larger schema
// (paid by Add for extension tools, on first use for built-ins).
func BenchmarkCompileSchema(b *testing.B) {
	ft := newTool("sink", nil)
	ft.spec.Parameters = json.RawMessage(sinkSchema)
	b.ReportAllocs()
	for b.Loop() {
		if err := CheckTool(ft); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidateInvalid(b *testing.B) {
	c := sinkCatalog(b)
	args := []byte(`{"name":"x","opts":["a",{"value":"a","label":""}],"options":{"bogus":1}}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Validate("sink", args); err == nil {
			b.Fatal("passed")
		}
	}
}
