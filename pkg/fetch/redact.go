package fetch

import (
	"fmt"
	"strings"
)

// Redacted stands in the audit for the value of a credential-bearing header.
const Redacted = "[redacted]"

// AuditHeaders says how much of the caller's headers the audit keeps.
type AuditHeaders int

const (
	// AuditHeadersRedacted (the default) keeps every header name and every
	// value except those of credential-bearing headers, which become
	// Redacted.
	AuditHeadersRedacted AuditHeaders = iota
	// AuditHeadersFull keeps every name and value as given: an explicit
	// opt-in (`tavo fetch --audit-headers full`).
	AuditHeadersFull
)

// ParseAuditHeaders parses the --audit-headers flag: "redacted" or "full".
func ParseAuditHeaders(s string) (AuditHeaders, error) {
	switch s {
	case "redacted", "":
		return AuditHeadersRedacted, nil
	case "full":
		return AuditHeadersFull, nil
	}
	return 0, fmt.Errorf("--audit-headers must be redacted or full, not %q", s)
}

// credentialHeaders are the well-known names whose values are secrets.
var credentialHeaders = map[string]bool{
	"authorization":       true,
	"proxy-authorization": true,
	"cookie":              true,
	"x-api-key":           true,
}

// IsCredentialHeader reports whether a header's value is a secret the audit
// must not keep: Authorization, Proxy-Authorization, Cookie, X-Api-Key, and
// any name containing "token", "key" or "secret" (case-insensitive), such as
// X-Auth-Token or Api-Key.
func IsCredentialHeader(name string) bool {
	n := strings.ToLower(name)
	if credentialHeaders[n] {
		return true
	}
	for _, part := range []string{"token", "key", "secret"} {
		if strings.Contains(n, part) {
			return true
		}
	}
	return false
}

// RedactHeaders returns a copy of hs with the value of every credential
// header replaced by Redacted; names and order are kept, so the audit still
// shows what kind of request was made.
func RedactHeaders(hs []Header) []Header {
	out := make([]Header, len(hs))
	for i, h := range hs {
		if IsCredentialHeader(h.Name) {
			h.Value = Redacted
		}
		out[i] = h
	}
	return out
}
