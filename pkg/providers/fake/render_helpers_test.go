package fake

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/tavo-cli/tavo/pkg/providers/sse"
)

// postTo sends body to path on the fake and returns the answer.
func postTo(t *testing.T, url, path, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	authorize(req)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// authorize gives req the key headers of every protocol, as the strict
// fake wants one of them.
func authorize(req *http.Request) {
	req.Header.Set("Authorization", "Bearer test-key")
	req.Header.Set("X-Api-Key", "test-key")
	req.Header.Set("Anthropic-Version", "2023-06-01")
	req.Header.Set("X-Goog-Api-Key", "test-key")
	req.Header.Set("Content-Type", "application/json")
}

// sseEvents reads every event of a stream.
func sseEvents(t *testing.T, body string) []sse.Event {
	t.Helper()
	r := sse.NewReader(strings.NewReader(body))
	var out []sse.Event
	for {
		ev, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("reading the stream: %v", err)
		}
		out = append(out, ev)
	}
}

// component compiles a schema of a trimmed spec, skipping without fixtures.
func component(t *testing.T, file, name string) *jsonschema.Schema {
	t.Helper()
	fixturesOrSkip(t)
	sch, _, err := compileComponent(schemaRef{file, name})
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// scriptedVariety is one reply with every kind of content, tool calls
// interleaved, for checking renderers against the official schemas.
func scriptedVariety() Reply {
	return Reply{
		Reasoning: "Let me think.", Text: "Calling tools.", Chunks: 3, Interleave: true,
		ToolCalls: []ToolCall{{ID: "call_a", Name: "f", Arguments: `{"a":1}`}, {ID: "call_b", Name: "g", Arguments: `{"b":"x"}`}},
		Usage:     &Usage{InputTokens: 50, OutputTokens: 20, CachedTokens: 10, ReasoningTokens: 5},
	}
}
