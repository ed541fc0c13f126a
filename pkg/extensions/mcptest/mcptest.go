// Package mcptest is a small MCP server built with the official Go SDK, for
// tests: the same tools over stdio (a test binary re-executed as a server)
// or streamable HTTP (an httptest server), with hostile variants.
package mcptest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tools of the test server.
const (
	// Echo returns "echo: " and its text argument.
	Echo = "echo"
	// Add returns {"sum": a+b} as structured content.
	Add = "add"
	// Fail returns an error result.
	Fail = "fail"
	// Delete is marked destructive.
	Delete = "delete_item"
	// Lookup is read-only (and, contradictorily, destructive: read-only wins).
	Lookup = "lookup"
	// Picture returns an image and a caption.
	Picture = "picture"
	// Hang does not return until the call is cancelled (or HangLimit
	// passes).
	Hang = "hang"
	// Crash makes the server die in the middle of the call.
	Crash = "crash"
	// Weird has a name no provider accepts as is.
	Weird = "weird.name/with spaces"
	// Big returns a text of n bytes.
	Big = "big"
)

// HangLimit bounds the Hang tool, far beyond any client timeout of the tests.
const HangLimit = 10 * time.Second

// FailMessage is the text of Fail's error result.
const FailMessage = "the widget is broken"

// NewServer returns the test server; crash is what the Crash tool does
// (exit the process, or drop the connections and refuse new ones).
func NewServer(crash func()) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "mcptest", Version: "v1.0.0"}, nil)
	yes := true
	add := func(t *mcp.Tool, h mcp.ToolHandler) {
		if t.InputSchema == nil {
			t.InputSchema = json.RawMessage(`{"type":"object"}`)
		}
		s.AddTool(t, h)
	}
	add(&mcp.Tool{
		Name:        Echo,
		Description: "Echo a text back. Useful to check the connection.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`),
	}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in struct{ Text string }
		_ = json.Unmarshal(req.Params.Arguments, &in)
		return text("echo: " + in.Text), nil
	})
	add(&mcp.Tool{
		Name:        Add,
		Title:       "Adder",
		Description: "Add two numbers and return the sum.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`),
	}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in struct{ A, B float64 }
		_ = json.Unmarshal(req.Params.Arguments, &in)
		sum := in.A + in.B
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: fmt.Sprint(sum)}},
			StructuredContent: map[string]any{"sum": sum},
		}, nil
	})
	add(&mcp.Tool{Name: Fail, Description: "Always fails."},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: FailMessage}}}, nil
		})
	add(&mcp.Tool{
		Name:        Delete,
		Description: "Delete an item for good.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`),
		Annotations: &mcp.ToolAnnotations{DestructiveHint: &yes},
	}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in struct{ ID string }
		_ = json.Unmarshal(req.Params.Arguments, &in)
		return text("deleted " + in.ID), nil
	})
	add(&mcp.Tool{
		Name:        Lookup,
		Description: "Look an item up.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: &yes},
	}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text("found"), nil
	})
	add(&mcp.Tool{Name: Picture, Description: "Draw a picture."},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{
				&mcp.TextContent{Text: "a red dot"},
				&mcp.ImageContent{MIMEType: "image/png", Data: []byte("\x89PNG fake")},
			}}, nil
		})
	add(&mcp.Tool{Name: Hang, Description: "Never finish."},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			// Bounded all the same: a client that timed out may never
			// deliver its cancellation (over HTTP it races the client's
			// close), and closing an MCP session waits for every call in
			// flight, so an unbounded hang could hold a test forever.
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(HangLimit):
				return nil, errors.New("hung for too long")
			}
		})
	add(&mcp.Tool{Name: Crash, Description: "Die in the middle of the call."},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			crash()
			return nil, errors.New("crashed")
		})
	add(&mcp.Tool{Name: Weird, Description: "A tool with an awkward name."},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("weird"), nil
		})
	add(&mcp.Tool{
		Name:        Big,
		Description: "Return a long text.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`),
	}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in struct{ N int }
		_ = json.Unmarshal(req.Params.Arguments, &in)
		return text(strings.Repeat("x", in.N)), nil
	})
	return s
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}
