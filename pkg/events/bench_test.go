package events

import (
	"bufio"
	"io"
	"testing"
)

// BenchmarkEmitTextDelta measures the path a streamed token takes from the
// runner to stdout (SPEC §10: a delta reaches stdout within 1 ms).
func BenchmarkEmitTextDelta(b *testing.B) {
	em := NewEmitter("run_01JDX8Q", "ses_01JDX8", nil, NewNDJSONWriter(bufio.NewWriter(io.Discard)))
	p := DeltaP{Round: 1, Text: "Let me fetch "}
	b.ReportAllocs()
	for b.Loop() {
		em.Emit(TextDelta, p)
	}
}

// BenchmarkEmitToolResult measures a larger structured payload.
func BenchmarkEmitToolResult(b *testing.B) {
	em := NewEmitter("run_01JDX8Q", "ses_01JDX8", nil, NewNDJSONWriter(io.Discard))
	content := make([]byte, 8<<10)
	for i := range content {
		content[i] = 'a' + byte(i%26)
	}
	p := ToolResultP{Round: 1, CallID: "call_a1", Name: "tavo_web_fetch", OK: true,
		Result: map[string]any{"title": "Example", "content": string(content)}, Bytes: len(content), DurationMS: 143}
	b.ReportAllocs()
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		em.Emit(ToolResult, p)
	}
}

// BenchmarkValidate measures schema validation of one line (tests only).
func BenchmarkValidate(b *testing.B) {
	line := []byte(validLine)
	if err := Validate(line); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = Validate(line)
	}
}
