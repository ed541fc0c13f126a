package providers

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"
)

// ErrPermanent marks a failure that retrying cannot fix even though its status
// is one that is normally retried (OpenAI's 429 insufficient_quota, a rejected
// tool list). A codec puts it in Error.Err; Transport then never retries.
var ErrPermanent = errors.New("retrying will not help")

// ErrStreamCut marks a response stream that ended before it was complete. The
// Transport retries it while no output has reached the sink.
var ErrStreamCut = errors.New("the response stream was cut")

// HTTPFailure is a non-2xx answer, handed to a codec's classifier.
type HTTPFailure struct {
	Status int
	Header http.Header
	// Body is at most maxErrorBody bytes of the answer. Classifiers extract
	// the provider's message from it; it is never shown as is.
	Body []byte
}

// maxErrorBody bounds how much of an error answer is read: envelopes are
// small, and a proxy's HTML page is not worth more.
const maxErrorBody = 1 << 20

// maxMessage bounds an error message taken from a provider.
const maxMessage = 600

// CleanMessage makes a provider's error message fit for one line of output:
// whitespace collapsed, length bounded.
func CleanMessage(msg string) string {
	msg = strings.Join(strings.Fields(msg), " ")
	if len(msg) <= maxMessage {
		return msg
	}
	cut := maxMessage
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return msg[:cut] + "…"
}

// GenericMessage is the message for an error answer whose body held nothing
// readable (an HTML page from a proxy, an empty body).
func GenericMessage(status int) string {
	text := http.StatusText(status)
	if text == "" {
		text = "unknown status"
	}
	return fmt.Sprintf("the server answered %d %s without a readable error message", status, text)
}

// CodeForStatus is the error code an HTTP status means when the body says
// nothing more specific. Codecs refine it (context_overflow,
// provider_rejected_tools, model_not_found from an error code).
func CodeForStatus(status int) ErrorCode {
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return ErrAuthFailed
	case status == http.StatusNotFound:
		return ErrModelNotFound
	case status == http.StatusTooManyRequests:
		return ErrRateLimited
	case status == http.StatusServiceUnavailable || status == 529:
		return ErrOverloaded
	default:
		return ErrProviderError
	}
}

// RetryableStatus reports whether an answer with this status is worth
// retrying: 429, every 5xx and Anthropic's 529.
func RetryableStatus(status int) bool {
	return status == http.StatusTooManyRequests || (status >= 500 && status <= 599)
}

// StreamCut returns the error for a stream that stopped early; cause may be nil
// (the server closed it cleanly but too soon).
func StreamCut(detail string, cause error) *Error {
	msg := "the response stream was cut: " + detail
	if cause != nil {
		msg += ": " + cause.Error()
	}
	return &Error{Code: ErrProviderError, Message: CleanMessage(msg), Err: errors.Join(ErrStreamCut, cause)}
}

// Retryable reports whether e may succeed if the same request is sent again.
// Whether output was already delivered is the Transport's concern, not this.
func Retryable(e *Error) bool {
	if e == nil || errors.Is(e, ErrPermanent) {
		return false
	}
	if RetryableStatus(e.Status) {
		return true
	}
	if e.Status == 0 {
		// Errors reported inside a 200 stream (Anthropic's overloaded_error
		// event) and failures of the connection itself.
		if e.Code == ErrRateLimited || e.Code == ErrOverloaded {
			return true
		}
		var ne *networkError
		return errors.As(e, &ne) || errors.Is(e, ErrStreamCut)
	}
	return false
}

// networkError wraps a failure to get any answer at all (refused, reset,
// DNS), which is worth retrying.
type networkError struct{ err error }

func (e *networkError) Error() string { return e.err.Error() }
func (e *networkError) Unwrap() error { return e.err }
