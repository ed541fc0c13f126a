package codemode

import (
	"context"
	"encoding/json"
	"testing"
)

// BenchmarkStart is the start cost of one program (SPEC §10: ≤ 2 ms): a
// fresh runtime, the prelude, a program that returns at once, and the
// runtime closed.
func BenchmarkStart(b *testing.B) {
	ctx := context.Background()
	for b.Loop() {
		if _, err := Run(ctx, Program{Code: `return 1`}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkToolCalls is a program making 20 tool calls, as the 20-file
// task of docs/performance.md does, with a tool that answers at once.
func BenchmarkToolCalls(b *testing.B) {
	ctx := context.Background()
	call := func(ctx context.Context, name string, args json.RawMessage) []byte {
		return []byte(`{"ok":true,"result":{"saved":true}}`)
	}
	code := `let n = 0; for (let i = 0; i < 20; i++) { if ((await tools.save({name: "f" + i, text: "x"})).saved) n++ } return {saved: n}`
	for b.Loop() {
		if _, err := Run(ctx, Program{Code: code, Call: call}); err != nil {
			b.Fatal(err)
		}
	}
}
