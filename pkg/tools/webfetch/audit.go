package webfetch

import (
	"encoding/json"

	"github.com/tavo-cli/tavo/pkg/fetch"
)

// Omitted stands in the audit for a cursor, which the audit never keeps
// (SPEC §6): a cursor is a capability to read a snapshot, not a fact about
// the request.
const Omitted = "[omitted]"

// AuditArguments returns what the audit may keep of a call's arguments: the
// URL, every header name with credential values (fetch.IsCredentialHeader)
// as fetch.Redacted, and a cursor as Omitted. Arguments that are not a JSON
// object (a model's unparsable text) are replaced by fetch.Redacted whole,
// since they may hold either.
func AuditArguments(raw json.RawMessage) json.RawMessage {
	var a map[string]json.RawMessage
	if err := json.Unmarshal(raw, &a); err != nil || a == nil {
		return mustJSON(fetch.Redacted)
	}
	if _, ok := a["cursor"]; ok {
		a["cursor"] = mustJSON(Omitted)
	}
	if h, ok := a["headers"]; ok {
		var hs map[string]json.RawMessage
		if err := json.Unmarshal(h, &hs); err != nil {
			a["headers"] = mustJSON(fetch.Redacted)
		} else {
			for name := range hs {
				if fetch.IsCredentialHeader(name) {
					hs[name] = mustJSON(fetch.Redacted)
				}
			}
			a["headers"] = mustJSON(hs)
		}
	}
	return mustJSON(a)
}

// mustJSON encodes values that always encode: strings and maps of raw JSON
// that was just decoded.
func mustJSON(v any) json.RawMessage {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return data
}
