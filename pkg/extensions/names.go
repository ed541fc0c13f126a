package extensions

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/tavo-cli/tavo/pkg/tools"
)

// maxNameLen is the longest model-facing tool name every provider accepts.
const maxNameLen = 64

// CommandID is the stable ID of the command tool called name.
func CommandID(name string) string { return "extension/command:" + name }

// MCPID is the stable ID of an MCP server's tool.
func MCPID(server, tool string) string { return "mcp/" + server + ":" + tool }

// ModelName is the model-facing name of an MCP tool: "<server>__<tool>" with
// every character outside [a-zA-Z0-9_-] replaced by '_', starting with a
// letter (Gemini requires a letter or '_' first; "mcp_" is put in front
// otherwise) and at most 64 characters. When the name had to be changed in a
// way that could make two tools meet (characters replaced or the name cut),
// a short hash of the stable ID is appended so that names stay distinct and
// the same from run to run.
func ModelName(server, tool string) string {
	base, changed := sanitize(server + "__" + tool)
	if !isLetter(base[0]) {
		base = "mcp_" + base
	}
	if !changed && len(base) <= maxNameLen {
		return base
	}
	return withHash(base, MCPID(server, tool))
}

// withHash cuts name so that "_" and a 6-digit hash of id fit in 64
// characters, and appends them.
func withHash(name, id string) string {
	sum := sha256.Sum256([]byte(id))
	suffix := "_" + hex.EncodeToString(sum[:])[:6]
	if len(name) > maxNameLen-len(suffix) {
		name = name[:maxNameLen-len(suffix)]
	}
	return name + suffix
}

// sanitize replaces what a tool name may not contain with '_' and reports
// whether anything was replaced. An empty input becomes "_".
func sanitize(s string) (string, bool) {
	if s == "" {
		return "_", true
	}
	var b strings.Builder
	changed := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isLetter(c) || c >= '0' && c <= '9' || c == '_' || c == '-' {
			b.WriteByte(c)
			continue
		}
		// A multi-byte rune becomes one '_', not one per byte.
		if c >= 0x80 && i > 0 && s[i-1] >= 0x80 && c < 0xC0 {
			continue
		}
		b.WriteByte('_')
		changed = true
	}
	return b.String(), changed
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// uniqueName returns name when cat has no tool by that name (or has the tool
// with this very ID), else name with a hash of id, so that an MCP tool never
// takes the name of another tool.
func uniqueName(cat *tools.Catalog, name, id string) string {
	if s, ok := cat.SpecOf(name); !ok || s.ID == id {
		return name
	}
	return withHash(name, id)
}
