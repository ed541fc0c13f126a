package fetch

import "fmt"

// Error codes; they match the tool result codes of SPEC §4 so the tool
// adapter can pass them through unchanged.
const (
	CodeInvalidArguments     = "invalid_arguments"
	CodeResourceNotFound     = "resource_not_found"
	CodeUnsupportedMediaType = "unsupported_media_type"
	CodeLimitExceeded        = "limit_exceeded"
	CodeUpstreamError        = "upstream_error"
	CodeTimeout              = "timeout"
	CodeCancelled            = "cancelled"
	CodeInternalError        = "internal_error"
)

// Error is a fetch failure. Message is one line a person or a model can act
// on; it names the limit, status, media type or cause and never contains a
// response body.
type Error struct {
	Code    string
	Message string
	// Limit names the limit that was exceeded (LimitWire, LimitDecoded, …);
	// empty for other codes.
	Limit string
	// Max is the value of that limit (bytes, or redirects for LimitRedirects).
	Max int64
	// Err is the underlying cause, when there is one.
	Err error
}

func (e *Error) Error() string { return e.Message }

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

func errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

func wrapf(code string, err error, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Err: err}
}

// Warning codes carried in Document.Warnings and the audit record.
const (
	// WarnJavaScriptRequired: the page looks rendered by JavaScript; the
	// result is what the static HTML gives, maybe nothing.
	WarnJavaScriptRequired = "javascript_required"
	// WarnCrossOriginRedirect: a redirect left the origin, so the caller's
	// headers were dropped before following it.
	WarnCrossOriginRedirect = "cross_origin_redirect"
	// WarnCharsetMismatch: the declared charset did not fit the bytes; the
	// body was decoded with the charset named in the message.
	WarnCharsetMismatch = "charset_mismatch"
	// WarnInvalidJSON: the body was served as JSON but does not parse; it is
	// shown as text.
	WarnInvalidJSON = "invalid_json"
	// WarnMainContentNotFound: --extract main found no main content; the
	// whole page is returned.
	WarnMainContentNotFound = "main_content_not_found"
	// WarnAuditFailed: the audit record could not be written.
	WarnAuditFailed = "audit_failed"
)

// Warning is a non-fatal remark about a fetched document.
type Warning struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func warningCodes(ws []Warning) []string {
	codes := make([]string, 0, len(ws))
	for _, w := range ws {
		codes = append(codes, w.Code)
	}
	return codes
}
