package fake

import (
	"encoding/json"
	"net/http"
	"strings"
)

// Request is one request the fake received.
type Request struct {
	Method string
	Path   string
	// Query is the raw query string, without "?".
	Query  string
	Header http.Header
	Body   []byte
}

// MarshalJSON writes the request as recorded in NDJSON files: headers as a
// flat object (several values joined by ", ") and the body as JSON when it
// is JSON, else as a string.
func (r Request) MarshalJSON() ([]byte, error) {
	headers := make(map[string]string, len(r.Header))
	for k, v := range r.Header {
		headers[k] = strings.Join(v, ", ")
	}
	var body any = string(r.Body)
	if json.Valid(r.Body) {
		body = json.RawMessage(r.Body)
	}
	return json.Marshal(struct {
		Method  string            `json:"method"`
		Path    string            `json:"path"`
		Query   string            `json:"query,omitempty"`
		Headers map[string]string `json:"headers"`
		Body    any               `json:"body"`
	}{r.Method, r.Path, r.Query, headers, body})
}
