package openai

import (
	"net/http"
	"regexp"
	"strings"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// envelope is what an error body says, from any of the shapes compatible
// servers use: OpenAI's {"error":{"message","type","code","param"}},
// Ollama's {"error":"…"}, vLLM's {"object":"error","message","type","code"},
// FastAPI's {"detail":"…"}.
type envelope struct {
	message, typ, code string
}

// parseEnvelope reads an error body; ok is false when it holds no message.
func parseEnvelope(body []byte) (envelope, bool) {
	if !gjson.ValidBytes(body) {
		return envelope{}, false
	}
	root := gjson.ParseBytes(body)
	var e envelope
	if errv := root.Get("error"); errv.IsObject() {
		e.message = errv.Get("message").String()
		e.typ = errv.Get("type").String()
		e.code = errv.Get("code").String()
	} else if errv.Type == gjson.String {
		e.message = errv.String()
	}
	if e.message == "" {
		if m := root.Get("message"); m.Type == gjson.String {
			e.message, e.typ, e.code = m.String(), root.Get("type").String(), root.Get("code").String()
		} else if d := root.Get("detail"); d.Type == gjson.String {
			e.message = d.String()
		}
	}
	if e.message == "" && (e.code != "" || e.typ != "") {
		e.message = e.typ
		if e.message == "" {
			e.message = e.code
		}
	}
	e.message = strings.TrimSpace(e.message)
	return e, e.message != ""
}

var (
	// contextOverflowRe matches how OpenAI and compatible servers say the
	// prompt is too long when they give no code.
	contextOverflowRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)maximum context length|context length|context window|too many tokens|prompt is too long|exceeds the (model's )?(maximum|context)|reduce the length`)
	})
	// toolsRe matches complaints about the tool list: Ollama's "does not
	// support tools", vLLM's "auto" tool choice requires
	// --enable-auto-tool-choice, OpenAI's "Invalid schema for function".
	toolsRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\btools?\b|tool_choice|tool[ _-]?call|\bfunctions?\b|function[ _-]?call`)
	})
)

// classifyHTTP maps a non-2xx answer to an error code and the provider's
// own message (never the raw body).
func classifyHTTP(f *providers.HTTPFailure, hadTools bool) *providers.Error {
	env, ok := parseEnvelope(f.Body)
	if !ok {
		return &providers.Error{Code: providers.CodeForStatus(f.Status), Message: providers.GenericMessage(f.Status)}
	}
	return classify(f.Status, env, hadTools)
}

// classify decides the code for an error envelope; status is 0 for an error
// sent inside a stream.
func classify(status int, env envelope, hadTools bool) *providers.Error {
	e := &providers.Error{Code: providers.CodeForStatus(status), Message: providers.CleanMessage(env.message)}
	switch {
	case env.code == "context_length_exceeded" ||
		(status == http.StatusBadRequest || status == http.StatusRequestEntityTooLarge || status == 0) && contextOverflowRe().MatchString(env.message):
		e.Code = providers.ErrContextOverflow
	case hadTools && (status == http.StatusBadRequest || status == http.StatusNotFound || status == http.StatusUnprocessableEntity) &&
		toolsRe().MatchString(env.message):
		// Retrying without tools would change what the run can do, so the
		// run fails here (SPEC §2).
		e.Code = providers.ErrProviderRejectedTools
		e.Err = providers.ErrPermanent
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		e.Code = providers.ErrAuthFailed
	case status == http.StatusNotFound || env.code == "model_not_found":
		e.Code = providers.ErrModelNotFound
	case env.code == "insufficient_quota":
		// A 429 that waiting cannot fix: the account is out of credit.
		e.Code = providers.ErrRateLimited
		e.Err = providers.ErrPermanent
	case status == 0:
		e.Code = streamErrorCode(env)
	}
	if e.Code == providers.ErrRateLimited && e.Err == nil {
		// A stream's error event has no headers: the wait is only in the
		// message. An HTTP answer's Retry-After header still wins
		// (Transport.failure).
		e.RetryAfter = providers.WaitFromMessage(env.message)
	}
	return e
}

// streamErrorCode maps an error sent inside a 200 stream, where only the
// envelope's type and code say what happened.
func streamErrorCode(env envelope) providers.ErrorCode {
	switch {
	case env.code == "rate_limit_exceeded" || env.typ == "rate_limit_error":
		return providers.ErrRateLimited
	case env.code == "overloaded" || env.typ == "overloaded_error" || env.code == "server_overloaded":
		return providers.ErrOverloaded
	}
	return providers.ErrProviderError
}
