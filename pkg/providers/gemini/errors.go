package gemini

import (
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/tidwall/gjson"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// status is what a google.rpc.Status error body says:
// {"error":{"code":429,"message":…,"status":"RESOURCE_EXHAUSTED","details":[…]}}.
type status struct {
	message, status, reason string
	retryAfter              time.Duration
}

// parseStatus reads an error envelope (the first one of an array, as
// streamGenerateContent without alt=sse sends it).
func parseStatus(root gjson.Result) status {
	if root.IsArray() {
		root = root.Get("0")
	}
	e := root.Get("error")
	var s status
	if !e.IsObject() {
		if e.Type == gjson.String {
			s.message = e.Str
		}
		return s
	}
	s.message = strings.TrimSpace(e.Get("message").String())
	s.status = e.Get("status").String()
	e.Get("details").ForEach(func(_, d gjson.Result) bool {
		switch {
		case strings.HasSuffix(d.Get("@type").String(), "google.rpc.RetryInfo"):
			// A protobuf Duration: "13.458185339s".
			if dur, err := time.ParseDuration(d.Get("retryDelay").String()); err == nil && dur > 0 {
				s.retryAfter = dur
			}
		case strings.HasSuffix(d.Get("@type").String(), "google.rpc.ErrorInfo"):
			s.reason = d.Get("reason").String()
		}
		return true
	})
	if s.message == "" {
		s.message = s.status
	}
	return s
}

var (
	// contextOverflowRe matches how Gemini says the prompt does not fit:
	// "The input token count (1290234) exceeds the maximum number of tokens
	// allowed (1048576)."
	contextOverflowRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)exceeds the maximum number of tokens|input token count|context window|context length|prompt is too long|too many tokens`)
	})
	// toolsRe matches complaints about function declarations:
	// "GenerateContentRequest.tools[0].function_declarations[2].parameters…",
	// "Unknown name \"exclusiveMinimum\" at 'tools[0].function_declarations…'".
	toolsRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)tools\[\d+\]|function_?declarations|function declaration|tool_config|toolConfig`)
	})
	// apiKeyRe matches Gemini's 400 for a bad key.
	apiKeyRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)api key not valid|api_key_invalid`) })
)

// classifyHTTP maps a non-2xx answer to an error code and Gemini's own
// message (never the raw body).
func classifyHTTP(f *providers.HTTPFailure, hadTools bool) *providers.Error {
	if !gjson.ValidBytes(f.Body) {
		return &providers.Error{Code: providers.CodeForStatus(f.Status), Message: providers.GenericMessage(f.Status)}
	}
	s := parseStatus(gjson.ParseBytes(f.Body))
	if s.message == "" {
		if m := gjson.GetBytes(f.Body, "message"); m.Type == gjson.String {
			s.message = m.Str
		}
	}
	if providers.CleanMessage(s.message) == "" {
		return &providers.Error{Code: providers.CodeForStatus(f.Status), Message: providers.GenericMessage(f.Status), RetryAfter: s.retryAfter}
	}
	return classify(f.Status, s, hadTools)
}

// classify decides the code for an error; status is 0 for an error sent
// inside a stream or a 200 answer, where only the status name says what
// happened.
func classify(httpStatus int, s status, hadTools bool) *providers.Error {
	msg := providers.CleanMessage(s.message)
	if msg == "" {
		msg = "the provider reported an error without a message"
	}
	e := &providers.Error{Code: providers.CodeForStatus(httpStatus), Message: msg, RetryAfter: s.retryAfter}
	badRequest := httpStatus == http.StatusBadRequest || s.status == "INVALID_ARGUMENT" || s.status == "FAILED_PRECONDITION"
	switch {
	case s.reason == "API_KEY_INVALID" || apiKeyRe().MatchString(s.message) || s.status == "UNAUTHENTICATED" || s.status == "PERMISSION_DENIED":
		e.Code = providers.ErrAuthFailed
	case badRequest && contextOverflowRe().MatchString(s.message):
		e.Code = providers.ErrContextOverflow
	case hadTools && badRequest && toolsRe().MatchString(s.message):
		// Retrying without tools would change what the run can do, so the
		// run fails here (SPEC §2).
		e.Code = providers.ErrProviderRejectedTools
		e.Err = providers.ErrPermanent
	case s.status == "NOT_FOUND" || httpStatus == http.StatusNotFound:
		e.Code = providers.ErrModelNotFound
	case s.status == "RESOURCE_EXHAUSTED":
		e.Code = providers.ErrRateLimited
	case s.status == "UNAVAILABLE":
		e.Code = providers.ErrOverloaded
	}
	return e
}
