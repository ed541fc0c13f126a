package fetch

import (
	"net/http"
	"slices"
	"strings"

	"golang.org/x/net/http/httpguts"
)

// Header is one caller header, kept as given (name spelling and order) so
// the audit records exactly what was submitted.
type Header struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// ParseHeader parses "Name: value" as given to `tavo fetch -H`.
func ParseHeader(s string) (Header, error) {
	name, value, ok := strings.Cut(s, ":")
	if !ok {
		return Header{}, errorf(CodeInvalidArguments, "header %q must look like 'Name: value'", s)
	}
	h := Header{Name: strings.TrimSpace(name), Value: strings.TrimSpace(value)}
	if err := validateHeaders([]Header{h}); err != nil {
		return Header{}, err
	}
	return h, nil
}

// HeadersFromMap turns a name→value object (the tool's headers argument)
// into Headers sorted by name, so requests and audit rows are stable.
func HeadersFromMap(m map[string]string) []Header {
	hs := make([]Header, 0, len(m))
	for k, v := range m {
		hs = append(hs, Header{Name: k, Value: v})
	}
	sortHeaders(hs)
	return hs
}

func sortHeaders(hs []Header) {
	slices.SortStableFunc(hs, func(a, b Header) int { return strings.Compare(a.Name, b.Name) })
}

// transportHeaders are managed by the HTTP client; a caller value would
// corrupt the framing of the request.
var transportHeaders = map[string]bool{
	"Connection":        true,
	"Content-Length":    true,
	"Keep-Alive":        true,
	"Proxy-Connection":  true,
	"Te":                true,
	"Trailer":           true,
	"Transfer-Encoding": true,
	"Upgrade":           true,
}

func validateHeaders(hs []Header) error {
	for _, h := range hs {
		if !httpguts.ValidHeaderFieldName(h.Name) {
			return errorf(CodeInvalidArguments, "header name %q is not a valid HTTP header name", h.Name)
		}
		if !httpguts.ValidHeaderFieldValue(h.Value) {
			return errorf(CodeInvalidArguments, "the value of header %q contains a line break or control character", h.Name)
		}
		if transportHeaders[http.CanonicalHeaderKey(h.Name)] {
			return errorf(CodeInvalidArguments, "header %q is managed by the HTTP client and cannot be set", h.Name)
		}
	}
	return nil
}
