package anthropic

import (
	"net/http"
	"regexp"
	"strings"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// envelope is what an error body or error event says:
// {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":…}.
// Proxies in front of the API sometimes answer {"error":"…"} or
// {"message":"…"}; those are read too.
type envelope struct {
	message, typ string
}

func parseEnvelope(body []byte) envelope {
	if !gjson.ValidBytes(body) {
		return envelope{}
	}
	root := gjson.ParseBytes(body)
	var e envelope
	switch errv := root.Get("error"); {
	case errv.IsObject():
		e.message, e.typ = errv.Get("message").String(), errv.Get("type").String()
	case errv.Type == gjson.String:
		e.message = errv.Str
	}
	if e.message == "" {
		if m := root.Get("message"); m.Type == gjson.String {
			e.message = m.Str
		}
	}
	e.message = strings.TrimSpace(e.message)
	if e.message == "" {
		e.message = e.typ
	}
	return e
}

var (
	// contextOverflowRe matches how the API says the prompt does not fit:
	// "prompt is too long: 208310 tokens > 200000 maximum", "input length
	// and `max_tokens` exceed context limit".
	contextOverflowRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)prompt is too long|exceed(s|ed)? (the )?context (limit|window)|context window|context length|too many tokens`)
	})
	// toolsRe matches complaints about the tool list: "tools.0.custom.name:
	// String should match pattern …", "tools.2.input_schema: JSON schema is
	// invalid", tool_choice problems.
	toolsRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(^|\W)tools(\.\d|:|\[)|input_schema|tool_choice`)
	})
)

// classifyHTTP maps a non-2xx answer to an error code and the API's own
// message (never the raw body).
func classifyHTTP(f *providers.HTTPFailure, hadTools bool) *providers.Error {
	env := parseEnvelope(f.Body)
	if providers.CleanMessage(env.message) == "" {
		return &providers.Error{Code: providers.CodeForStatus(f.Status), Message: providers.GenericMessage(f.Status)}
	}
	return classify(f.Status, env, hadTools)
}

// classify decides the code for an error envelope; status is 0 for an error
// event inside a stream or a 200 answer, where only the type says what
// happened.
func classify(status int, env envelope, hadTools bool) *providers.Error {
	msg := providers.CleanMessage(env.message)
	if msg == "" {
		msg = "the provider reported an error without a message"
	}
	e := &providers.Error{Code: providers.CodeForStatus(status), Message: msg}
	badRequest := status == http.StatusBadRequest || status == 0 || env.typ == "invalid_request_error"
	switch {
	case env.typ == "request_too_large" || status == http.StatusRequestEntityTooLarge ||
		badRequest && contextOverflowRe().MatchString(env.message):
		e.Code = providers.ErrContextOverflow
	case hadTools && badRequest && toolsRe().MatchString(env.message):
		// Retrying without tools would change what the run can do, so the
		// run fails here (SPEC §2).
		e.Code = providers.ErrProviderRejectedTools
		e.Err = providers.ErrPermanent
	case env.typ == "authentication_error" || env.typ == "permission_error":
		e.Code = providers.ErrAuthFailed
	case env.typ == "not_found_error":
		e.Code = providers.ErrModelNotFound
	case env.typ == "rate_limit_error":
		e.Code = providers.ErrRateLimited
	case env.typ == "overloaded_error":
		e.Code = providers.ErrOverloaded
	case env.typ == "billing_error":
		// Out of credit: waiting will not fix it.
		e.Code = providers.ErrProviderError
		e.Err = providers.ErrPermanent
	}
	return e
}
