package resources

import "fmt"

// Error codes a read fails with; they are the tool error codes of SPEC §4
// and §11, so pkg/tools passes them to the model unchanged.
const (
	CodeInvalidArguments          = "invalid_arguments"
	CodeResourceNotFound          = "resource_not_found"
	CodePermissionDenied          = "permission_denied"
	CodeUnsupportedMediaType      = "unsupported_media_type"
	CodeUpstreamError             = "upstream_error"
	CodeInternalError             = "internal_error"
	CodeInvalidAttachmentLifetime = "invalid_attachment_lifetime"
)

// Error is a read that failed in a way the reader can act on. Its message
// never names a host path outside the resource the reader asked for.
type Error struct {
	Code    string
	Message string
	Details map[string]any
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

func errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// invalidURL is invalid_arguments about the url argument, with the
// {path, expected, actual} details of SPEC §4.
func invalidURL(expected, actual, format string, args ...any) *Error {
	e := errorf(CodeInvalidArguments, format, args...)
	e.Details = map[string]any{"path": "url", "expected": expected, "actual": actual}
	return e
}
