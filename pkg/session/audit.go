package session

import (
	"encoding/json"

	"github.com/tavo-cli/tavo/pkg/tools/webfetch"
)

// auditArguments is what a tool audit row keeps of a call's arguments. A
// tool whose arguments carry secrets or short-lived capabilities declares
// what to keep; tavo_web_fetch keeps no cursor and no credential header
// value (SPEC §6). Every other tool's arguments are kept as given.
func auditArguments(toolID, name string, args json.RawMessage) json.RawMessage {
	if toolID == "" {
		// An unknown tool has no ID; its name alone cannot be trusted to be
		// the built-in, but redacting it costs nothing.
		toolID = name
	}
	switch toolID {
	case webfetch.Name:
		return webfetch.AuditArguments(args)
	}
	return args
}
