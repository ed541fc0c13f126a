package codemode

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// echo is a CallFunc whose tools are "echo" (returns its arguments),
// "fail" (a tool error) and "block" (waits for its context).
func echo(ctx context.Context, name string, args json.RawMessage) []byte {
	switch name {
	case "echo":
		return []byte(`{"ok":true,"result":` + string(args) + `}`)
	case "fail":
		return []byte(`{"ok":false,"error":{"code":"permission_denied","message":"no","details":{"path":"x"}}}`)
	case "block":
		<-ctx.Done()
		return []byte(`{"ok":false,"error":{"code":"cancelled","message":"cancelled"}}`)
	}
	return []byte(`{"ok":false,"error":{"code":"unknown_tool","message":"there is no tool named ` + name + `"}}`)
}

func run(t *testing.T, code string) (*Result, *Error) {
	t.Helper()
	return runCtx(t, context.Background(), code)
}

func runCtx(t *testing.T, ctx context.Context, code string) (*Result, *Error) {
	t.Helper()
	res, err := Run(ctx, Program{Code: code, Call: echo})
	if err == nil {
		return res, nil
	}
	e, ok := err.(*Error)
	if !ok {
		t.Fatalf("Run returned %T %v, want *Error", err, err)
	}
	return res, e
}

func wantCode(t *testing.T, e *Error, code string) {
	t.Helper()
	if e == nil || e.Code != code {
		t.Fatalf("error = %v, want code %s", e, code)
	}
}

func TestReturnsValue(t *testing.T) {
	res, e := run(t, `const r = await tools.echo({a: 1, s: "é"}); console.log("got", r); return {sum: r.a + 1, s: r.s};`)
	if e != nil {
		t.Fatal(e)
	}
	if string(res.Value) != `{"sum":2,"s":"é"}` {
		t.Errorf("value = %s", res.Value)
	}
	if res.Console != "got {\"a\":1,\"s\":\"é\"}\n" || res.Calls != 1 {
		t.Errorf("console = %q, calls = %d", res.Console, res.Calls)
	}
}

func TestNoReturnIsNull(t *testing.T) {
	res, e := run(t, `await tools.echo({})`)
	if e != nil || string(res.Value) != "null" {
		t.Fatalf("value = %s, err = %v", res.Value, e)
	}
}

func TestToolErrorThrowsError(t *testing.T) {
	res, e := run(t, `try { await tools.fail({}) } catch (err) { return [err instanceof Error, err.code, err.message, err.details.path] }`)
	if e != nil || string(res.Value) != `[true,"permission_denied","no","x"]` {
		t.Fatalf("value = %s, err = %v", res.Value, e)
	}
}

func TestUncaughtToolError(t *testing.T) {
	_, e := run(t, "\n\nawait tools.fail({})")
	wantCode(t, e, CodeError)
	if e.Details["error_code"] != "permission_denied" || e.Details["line"] != 3 {
		t.Errorf("details = %v", e.Details)
	}
}

func TestUnknownTool(t *testing.T) {
	_, e := run(t, `await tools.nope({})`)
	wantCode(t, e, CodeError)
	if e.Details["error_code"] != "unknown_tool" {
		t.Errorf("details = %v", e.Details)
	}
	res, e := run(t, `return typeof tools.then`)
	if e != nil || string(res.Value) != `"undefined"` {
		t.Fatalf("tools must not look like a promise: %s %v", res.Value, e)
	}
}

func TestArgumentsMustBeAnObject(t *testing.T) {
	_, e := run(t, `await tools.echo([1])`)
	wantCode(t, e, CodeError)
	if !strings.Contains(e.Message, "takes one object") {
		t.Errorf("message = %q", e.Message)
	}
	_, e = run(t, `const a = {}; a.a = a; await tools.echo(a)`)
	wantCode(t, e, CodeError)
}

func TestSyntaxErrorPosition(t *testing.T) {
	_, e := run(t, "const a = 1;\nconst b = ;")
	wantCode(t, e, CodeError)
	if e.Details["line"] != 2 {
		t.Errorf("details = %v, message %q", e.Details, e.Message)
	}
}

func TestRuntimeErrorPosition(t *testing.T) {
	_, e := run(t, "const a = null;\n\n  a.x")
	wantCode(t, e, CodeError)
	if e.Details["line"] != 3 || e.Details["column"] != 4 {
		t.Errorf("details = %v, message %q", e.Details, e.Message)
	}
}

func TestThrowNonError(t *testing.T) {
	for _, v := range []string{`5`, `"boom"`, `{a: 1}`, `null`, `undefined`, `Symbol("s")`, `new Proxy({}, {get() { throw 1 }})`} {
		_, e := run(t, "throw "+v)
		wantCode(t, e, CodeError)
		if !strings.Contains(e.Message, "not an Error") {
			t.Errorf("throw %s: message %q", v, e.Message)
		}
	}
}

func TestCyclicReturn(t *testing.T) {
	_, e := run(t, `const a = {}; a.self = a; return a`)
	wantCode(t, e, CodeError)
	if !strings.Contains(e.Message, "JSON") {
		t.Errorf("message = %q", e.Message)
	}
	_, e = run(t, `return 10n`)
	wantCode(t, e, CodeError)
}

func TestInfiniteLoopStopsAtDeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, e := runCtx(t, ctx, `while (true) { try { for (;;) {} } catch (e) {} }`)
	wantCode(t, e, CodeTimeout)
}

func TestCancelStopsBusyProgram(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	_, e := runCtx(t, ctx, `for (;;) {}`)
	wantCode(t, e, CodeCancelled)
}

func TestCancelStopsProgramWaitingOnTool(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	_, e := runCtx(t, ctx, `try { await tools.block({}) } catch (e) {} for (;;) {}`)
	wantCode(t, e, CodeCancelled)
}

func TestUnboundedAllocation(t *testing.T) {
	_, e := run(t, `const a = []; for (;;) { a.push("x".repeat(1000) + a.length) }`)
	wantCode(t, e, CodeLimitExceeded)
	_, e = run(t, `let s = "x"; for (;;) { s = s + s }`)
	wantCode(t, e, CodeLimitExceeded)
	// A program that catches running out of memory and goes on is stopped
	// by its deadline.
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, e = runCtx(t, ctx, `let s = "x"; for (;;) { try { s = s + s } catch (e) {} }`)
	wantCode(t, e, CodeTimeout)
}

func TestDeepRecursion(t *testing.T) {
	_, e := run(t, `function f(n) { return f(n + 1) + 1 } return f(0)`)
	wantCode(t, e, CodeLimitExceeded)
	// Caught, it is the program's to handle.
	res, e := run(t, `function f(n) { return f(n + 1) + 1 } try { f(0) } catch (e) { return "caught" }`)
	if e != nil || string(res.Value) != `"caught"` {
		t.Fatalf("value = %s, err = %v", res.Value, e)
	}
}

func TestCallLimit(t *testing.T) {
	res, e := run(t, `for (let i = 0; i < 65; i++) { try { await tools.echo({i}) } catch (e) {} } return "done"`)
	wantCode(t, e, CodeLimitExceeded)
	if res.Calls != DefaultCalls {
		t.Errorf("calls = %d", res.Calls)
	}
	res, e = run(t, `for (let i = 0; i < 64; i++) { await tools.echo({i}) } return "done"`)
	if e != nil || res.Calls != 64 {
		t.Fatalf("64 calls: %v, %d", e, res.Calls)
	}
}

func TestNoEscapes(t *testing.T) {
	for _, code := range []string{
		`return typeof require`,
		`return typeof process`,
		`return typeof fetch`,
		`return typeof setTimeout`,
		`return typeof std + typeof os + typeof print + typeof performance`,
		`return typeof __tavo_call + typeof __tavo_settle + typeof __tavo_log`,
		`return eval("typeof require")`,
		`return (0, eval)("typeof globalThis.__tavo_call")`,
		`return Function("return typeof this.process")()`,
	} {
		res, e := run(t, code)
		if e != nil {
			t.Fatalf("%s: %v", code, e)
		}
		if strings.Trim(string(res.Value), `"`) != strings.Repeat("undefined", strings.Count(code, "typeof")) {
			t.Errorf("%s = %s", code, res.Value)
		}
	}
	for _, code := range []string{
		`return await import("os")`,
		`return await import("/etc/passwd")`,
		`return require("fs")`,
		`return (function(){ return this })().constructor.constructor("return process")()`,
		`return fetch("http://127.0.0.1/")`,
		`return Date.now()`,
		`return new Date()`,
		`return Date()`,
		`return new (new Date(0).constructor)()`,
		`return Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0)`,
		`await new Promise(() => {})`,
	} {
		_, e := run(t, code)
		if e == nil || e.Code != CodeError {
			t.Errorf("%s: error %v, want code_error", code, e)
		}
	}
	res, e := run(t, `return new Date(0).toISOString()`)
	if e != nil || string(res.Value) != `"1970-01-01T00:00:00.000Z"` {
		t.Errorf("Date with an argument: %s %v", res.Value, e)
	}
}

func TestConsoleBounded(t *testing.T) {
	res, e := run(t, `for (let i = 0; i < 10000; i++) console.log("line", i, {i}); return 1`)
	if e != nil {
		t.Fatal(e)
	}
	if len(res.Console) > DefaultConsole || !res.ConsoleTruncated {
		t.Errorf("console %d bytes, truncated %v", len(res.Console), res.ConsoleTruncated)
	}
}

func TestFreshRuntimeEachProgram(t *testing.T) {
	if _, e := run(t, `globalThis.leak = 1; Object.prototype.polluted = 1`); e != nil {
		t.Fatal(e)
	}
	res, e := run(t, `return [typeof leak, typeof ({}).polluted]`)
	if e != nil || string(res.Value) != `["undefined","undefined"]` {
		t.Fatalf("%s %v", res.Value, e)
	}
}

func TestStaysHealthyAfterAbuse(t *testing.T) {
	// A run of bad programs must not leave anything behind that breaks the
	// next one.
	for i := 0; i < 2; i++ {
		run(t, `const a = []; for (;;) a.push("y".repeat(1e5) + a.length)`)
		run(t, `function f() { f() } f()`)
	}
	res, e := run(t, `return (await tools.echo({ok: 1})).ok`)
	if e != nil || string(res.Value) != "1" {
		t.Fatalf("%s %v", res.Value, e)
	}
}

func ExampleRun() {
	res, _ := Run(context.Background(), Program{
		Code: `const r = await tools.echo({n: 41}); return {answer: r.n + 1}`,
		Call: func(ctx context.Context, name string, args json.RawMessage) []byte {
			return []byte(`{"ok":true,"result":` + string(args) + `}`)
		},
	})
	fmt.Println(string(res.Value))
	// Output: {"answer":42}
}
