package search

import (
	"fmt"
	"github.com/tavo-cli/tavo/pkg/httpx"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode"
)

// Error codes of *Error.
const (
	// CodeAuthFailed: the API rejected the key (or the instance wants
	// credentials).
	CodeAuthFailed = "auth_failed"
	// CodeRateLimited: too many requests; RetryAfter says when to try again
	// when the API told.
	CodeRateLimited = "rate_limited"
	// CodeQuotaExceeded: the plan's or key's credit limit is used up
	// (Tavily 432/433, Brave QUOTA_LIMITED); waiting a little will not help.
	CodeQuotaExceeded = "quota_exceeded"
	// CodeBadRequest: the API refused the request's parameters.
	CodeBadRequest = "bad_request"
	// CodeUpstream: the API failed, answered something unreadable, or could
	// not be reached.
	CodeUpstream = "upstream_error"
	// CodeTimeout: no complete answer within the API's timeout.
	CodeTimeout = "timeout"
	// CodeNotConfigured: the default search API is missing, incomplete or
	// invalid; nothing was sent.
	CodeNotConfigured = "not_configured"
)

// Error is a failed search. Its text is one line that names the API and says
// what to do; it never holds a key, a raw body, a request id or an address.
type Error struct {
	Code string
	// Engine and API name the configured search API; both are empty on the
	// summary error of a Runner whose every API failed.
	Engine string
	API    string
	// Status is the HTTP status, 0 when no answer came.
	Status int
	// Message is a clean one-line explanation.
	Message string
	// RetryAfter is how long the API asked to wait, 0 when it did not say.
	RetryAfter time.Duration
}

func (e *Error) Error() string {
	var b strings.Builder
	switch {
	case e.API != "" && e.API != e.Engine:
		fmt.Fprintf(&b, "search API %q (%s): ", e.API, e.Engine)
	case e.Engine != "":
		b.WriteString(e.Engine + ": ")
	default:
		b.WriteString("search: ")
	}
	b.WriteString(e.Code)
	if e.Status != 0 {
		fmt.Fprintf(&b, " (HTTP %d)", e.Status)
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	if e.RetryAfter > 0 {
		fmt.Fprintf(&b, "; retry after %s", e.RetryAfter.Round(time.Second))
	}
	return b.String()
}

// codeForStatus is the generic mapping of an HTTP error status; engines
// refine it with the codes in their error bodies.
func codeForStatus(status int) string {
	switch {
	case status == 400 || status == 404 || status == 405 || status == 413 || status == 414 || status == 422:
		return CodeBadRequest
	case status == 401 || status == 403:
		return CodeAuthFailed
	case status == 429:
		return CodeRateLimited
	case status == 432 || status == 433:
		return CodeQuotaExceeded
	case status == 408 || status == 504:
		return CodeTimeout
	default:
		return CodeUpstream
	}
}

// hintForCode is appended when the API gave no message of its own.
func hintForCode(code string) string {
	switch code {
	case CodeAuthFailed:
		return "the API rejected the key; check the configured key or its environment variable"
	case CodeRateLimited:
		return "too many requests; wait and try again"
	case CodeQuotaExceeded:
		return "the plan's usage limit is reached; raise it on the provider's dashboard"
	case CodeBadRequest:
		return "the API refused the request's parameters"
	case CodeTimeout:
		return "the API did not answer in time"
	default:
		return "the API failed; try again later"
	}
}

// keyShaped matches tokens that look like API keys of the supported engines,
// so a key echoed by an upstream never reaches a message even when it is not
// the configured one.
var keyShaped = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\b(tvly-[A-Za-z0-9_-]+|BSA[A-Za-z0-9_-]{8,})`) })

const maxMessageBytes = 300

// cleanMessage turns an upstream error text into one safe line: control
// characters folded to spaces, secrets redacted, length capped.
func cleanMessage(s string, secrets ...string) string {
	s = httpx.RedactSecrets(s, secrets...)
	s = keyShaped().ReplaceAllString(s, httpx.Redacted)
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == unicode.ReplacementChar {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, " "))
	s = strings.Join(strings.Fields(s), " ")
	return truncateBytes(s, maxMessageBytes)
}
