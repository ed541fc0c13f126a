package extensions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tavo-cli/tavo/pkg/resources"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// maxErrorText bounds the text of an MCP tool error passed to the model.
const maxErrorText = 2 << 10

// MCPTool is one tool of an MCP server.
type MCPTool struct {
	srv    *server
	remote string // the tool's name on the server
	spec   tools.Spec
}

// newMCPTool describes the server's tool t for tavo's catalog.
func newMCPTool(s *server, t *mcp.Tool) *MCPTool {
	desc := strings.TrimSpace(t.Description)
	if desc == "" {
		desc = strings.TrimSpace(t.Title)
	}
	if desc == "" {
		desc = "The tool " + t.Name + " of the MCP server " + s.name + "."
	}
	display := t.Title
	if display == "" && t.Annotations != nil {
		display = t.Annotations.Title
	}
	return &MCPTool{
		srv:    s,
		remote: t.Name,
		spec: tools.Spec{
			Name:         ModelName(s.name, t.Name),
			ID:           MCPID(s.name, t.Name),
			Description:  desc,
			Parameters:   inputSchema(t.InputSchema),
			NeedsConfirm: destructive(t.Annotations),
			Source:       tools.SourceMCP,
			DisplayName:  display,
		},
	}
}

// destructive reports whether a tool's annotations mark it as one that may
// destroy data: destructiveHint set to true on a tool that is not
// read-only. A tool without annotations is not asked about: the MCP default
// of "destructive unless told otherwise" would make every plain tool ask.
func destructive(a *mcp.ToolAnnotations) bool {
	return a != nil && !a.ReadOnlyHint && a.DestructiveHint != nil && *a.DestructiveHint
}

// inputSchema is the tool's input schema as JSON, an object schema: a
// schema without a type gets "type": "object" (MCP requires one), anything
// unusable becomes the empty object schema and the catalog decides.
func inputSchema(s any) json.RawMessage {
	var doc map[string]any
	switch v := s.(type) {
	case nil:
	case json.RawMessage:
		_ = json.Unmarshal(v, &doc)
	case map[string]any:
		doc = v
	default:
		if b, err := json.Marshal(v); err == nil {
			_ = json.Unmarshal(b, &doc)
		}
	}
	if doc == nil {
		doc = map[string]any{}
	}
	if _, ok := doc["type"]; !ok {
		doc["type"] = "object"
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return json.RawMessage(defaultSchema)
	}
	return b
}

// Spec describes the tool.
func (t *MCPTool) Spec() tools.Spec { return t.spec }

// Server is the name of the tool's server.
func (t *MCPTool) Server() string { return t.srv.name }

// withName returns a copy of t under another model name.
func (t *MCPTool) withName(name string) *MCPTool {
	c := *t
	c.spec.Name = name
	return &c
}

// Run calls the tool on its server.
func (t *MCPTool) Run(ctx context.Context, call *tools.Call) (any, error) {
	session, err := t.srv.live()
	if err != nil {
		return nil, tools.Errorf(tools.CodeUpstreamError, err.Error())
	}
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: t.remote, Arguments: call.Args})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, t.callError(err)
	}
	return mapResult(res, t.media(ctx, call))
}

// media is how an image or audio block reads in the result: kept as an
// artifact of the run and named by its [attachment: URL; type; N bytes]
// note (SPEC §11, pkg/resources); a short note when the run has no
// resource centre or the artifact cannot be stored.
func (t *MCPTool) media(ctx context.Context, call *tools.Call) mediaText {
	var c *resources.Centre
	var scope resources.Scope
	if call != nil && call.Env != nil {
		c = call.Env.Catalog.Resources()
		scope = resources.Scope{SessionID: call.Env.SessionID, RunID: call.Env.RunID}
	}
	return func(kind, mime string, data []byte) string {
		if c != nil {
			if note, err := c.ToolMedia(ctx, scope, t.spec.Name, mime, data); err == nil {
				return note
			}
		}
		return fmt.Sprintf("[%s %s, %d bytes, not shown]", kind, orUnknown(mime), len(data))
	}
}

// mediaText renders a media block of a result as text.
type mediaText func(kind, mime string, data []byte) string

// callError phrases a call that got no result.
func (t *MCPTool) callError(err error) *tools.Error {
	if ended := t.srv.hasEnded(); ended || errors.Is(err, mcp.ErrConnectionClosed) {
		t.srv.mu.Lock()
		note := t.srv.exitNote()
		t.srv.mu.Unlock()
		return tools.Errorf(tools.CodeUpstreamError, fmt.Sprintf(
			"the MCP server %q stopped during the call%s; the result is unknown and the call was not re-run", t.srv.name, note))
	}
	return tools.Errorf(tools.CodeUpstreamError, fmt.Sprintf("the MCP server %q failed the call: %s", t.srv.name, oneLine(err.Error(), 500)))
}

// mapResult turns an MCP result into tavo's: an error result becomes
// upstream_error with its text; structured content is the structured
// result; otherwise the content blocks as text, with a short note for each
// block the model cannot read as text (images and audio: media; binary
// resources).
func mapResult(res *mcp.CallToolResult, media mediaText) (any, error) {
	text := contentText(res.Content, media)
	if res.IsError {
		if text == "" {
			text = "the tool reported an error without a message"
		}
		if len(text) > maxErrorText {
			text = oneLine(text, maxErrorText)
		}
		return nil, tools.Errorf(tools.CodeUpstreamError, text)
	}
	if res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err == nil {
			return json.RawMessage(b), nil
		}
	}
	return text, nil
}

// contentText joins the content blocks as text.
func contentText(cs []mcp.Content, media mediaText) string {
	parts := make([]string, 0, len(cs))
	for _, c := range cs {
		switch v := c.(type) {
		case *mcp.TextContent:
			parts = append(parts, v.Text)
		case *mcp.ImageContent:
			parts = append(parts, media("image", v.MIMEType, v.Data))
		case *mcp.AudioContent:
			parts = append(parts, media("audio", v.MIMEType, v.Data))
		case *mcp.ResourceLink:
			parts = append(parts, fmt.Sprintf("[resource %s: %s]", v.Name, v.URI))
		case *mcp.EmbeddedResource:
			parts = append(parts, resourceText(v.Resource))
		default:
			parts = append(parts, "[content of an unsupported kind, not shown]")
		}
	}
	return strings.Join(parts, "\n")
}

// resourceText is an embedded resource as text: its text, or a note for a
// binary one.
func resourceText(r *mcp.ResourceContents) string {
	switch {
	case r == nil:
		return "[empty resource]"
	case r.Blob != nil:
		return fmt.Sprintf("[resource %s, %s, %d bytes, not shown]", r.URI, orUnknown(r.MIMEType), len(r.Blob))
	}
	return r.Text
}

func orUnknown(mime string) string {
	if mime == "" {
		return "of unknown type"
	}
	return mime
}
