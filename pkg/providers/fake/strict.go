package fake

import (
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// The fake is as strict as the real APIs by default: a request to a path the
// protocol does not have, with the wrong method, without its key, or with a
// body field the API does not know is refused with the provider's own error
// envelope, and a scripted 429 carries the headers the provider sends.
// Server.Lax turns the checks off for a test that means to send such a
// request to something that is not one of the four APIs.

// strictSchema tightens a trimmed spec where the real API is stricter than
// its published schema: OpenAI refuses unknown top-level arguments
// ("Unrecognized request argument supplied"), though its allOf schemas
// leave them open, and Gemini's proto parser refuses an unknown field at
// any depth ("Unknown name"), though the converted discovery document
// allows them. Gemini also takes the snake_case form of every field name,
// which strictness must not refuse. Anthropic's spec is already closed.
func strictSchema(ref schemaRef, doc any) {
	root, ok := doc.(map[string]any)
	if !ok {
		return
	}
	comps, _ := root["components"].(map[string]any)
	schemas, _ := comps["schemas"].(map[string]any)
	switch ref.file {
	case "openai.trimmed.json":
		if top, ok := schemas[ref.component].(map[string]any); ok {
			if _, set := top["unevaluatedProperties"]; !set {
				top["unevaluatedProperties"] = false
			}
		}
	case "gemini.trimmed.json":
		for _, s := range schemas {
			closeObjects(s)
		}
	}
}

// closeObjects sets additionalProperties false on every object schema with
// named properties and no rule for others, adding each camelCase
// property's snake_case alias.
func closeObjects(v any) {
	switch v := v.(type) {
	case []any:
		for _, x := range v {
			closeObjects(x)
		}
	case map[string]any:
		for _, x := range v {
			closeObjects(x)
		}
		props, ok := v["properties"].(map[string]any)
		if !ok {
			return
		}
		if _, set := v["additionalProperties"]; set {
			return
		}
		for name, sub := range props {
			if alias := snakeCase(name); alias != name {
				if _, taken := props[alias]; !taken {
					props[alias] = sub
				}
			}
		}
		v["additionalProperties"] = false
	}
}

// snakeCase is a proto field's JSON name in the other spelling Gemini takes:
// functionDeclarations → function_declarations.
func snakeCase(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// unknownFields lists the top-level fields of body that the protocol's
// request schema does not name, for an error message worded as the API
// words it. It is best effort: a body that is not an object has none.
func unknownFields(known map[string]bool, body map[string]any) []string {
	var out []string
	for k := range body {
		if !known[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// topLevelFields collects the property names of a request schema,
// following allOf and $ref within the document.
func topLevelFields(doc map[string]any, s map[string]any, into map[string]bool, depth int) {
	if depth > 8 {
		return
	}
	if ref, ok := s["$ref"].(string); ok {
		if target := resolvePointer(doc, ref); target != nil {
			topLevelFields(doc, target, into, depth+1)
		}
	}
	if props, ok := s["properties"].(map[string]any); ok {
		for k := range props {
			into[k] = true
		}
	}
	if all, ok := s["allOf"].([]any); ok {
		for _, sub := range all {
			if m, ok := sub.(map[string]any); ok {
				topLevelFields(doc, m, into, depth+1)
			}
		}
	}
}

// resolvePointer finds a local "#/a/b" reference in doc.
func resolvePointer(doc map[string]any, ref string) map[string]any {
	if !strings.HasPrefix(ref, "#/") {
		return nil
	}
	var cur any = doc
	for _, part := range strings.Split(ref[2:], "/") {
		part = strings.NewReplacer("~1", "/", "~0", "~").Replace(part)
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[part]
	}
	m, _ := cur.(map[string]any)
	return m
}

// invalidBody is the 400 each API answers a body with unknown fields or
// values its schema refuses.
func invalidBody(protocol providers.Protocol, unknown []string, detail string) *APIError {
	switch protocol {
	case providers.ProtocolAnthropic:
		if len(unknown) > 0 {
			return &APIError{Type: "invalid_request_error", Message: unknown[0] + ": Extra inputs are not permitted"}
		}
		return &APIError{Type: "invalid_request_error", Message: detail}
	case providers.ProtocolGemini:
		if len(unknown) > 0 {
			return &APIError{Code: "INVALID_ARGUMENT", Message: fmt.Sprintf("Invalid JSON payload received. Unknown name %q: Cannot find field.", unknown[0])}
		}
		return &APIError{Code: "INVALID_ARGUMENT", Message: "Invalid JSON payload received. " + detail}
	}
	if len(unknown) > 0 {
		return &APIError{Type: "invalid_request_error", Message: "Unrecognized request argument supplied: " + strings.Join(unknown, ", ")}
	}
	return &APIError{Type: "invalid_request_error", Message: "Invalid request: " + detail}
}

// checkRoute refuses what the API refuses before it reads the body: a path
// or method it does not have (404), and a request without its key (401;
// Gemini 403). It returns 0 when the request may go on.
func checkRoute(protocol providers.Protocol, r *http.Request) (int, *APIError) {
	path := r.URL.Path
	known := false
	switch protocol {
	case providers.ProtocolOpenAI:
		known = strings.HasSuffix(path, "/chat/completions")
	case providers.ProtocolOpenAIResponses:
		known = strings.HasSuffix(path, "/responses")
	case providers.ProtocolAnthropic:
		known = strings.HasSuffix(path, "/v1/messages")
	case providers.ProtocolGemini:
		known = (strings.Contains(path, "/models/") || strings.Contains(path, "/tunedModels/")) &&
			(strings.HasSuffix(path, ":generateContent") || strings.HasSuffix(path, ":streamGenerateContent"))
	default:
		return 0, nil
	}
	if !known || r.Method != http.MethodPost {
		msg := fmt.Sprintf("Invalid URL (%s %s)", r.Method, path)
		switch protocol {
		case providers.ProtocolAnthropic:
			return http.StatusNotFound, &APIError{Type: "not_found_error", Message: "Not Found"}
		case providers.ProtocolGemini:
			return http.StatusNotFound, &APIError{Code: "NOT_FOUND", Message: msg}
		}
		return http.StatusNotFound, &APIError{Type: "invalid_request_error", Message: msg}
	}
	switch protocol {
	case providers.ProtocolAnthropic:
		if strings.TrimSpace(r.Header.Get("X-Api-Key")) == "" {
			return http.StatusUnauthorized, &APIError{Type: "authentication_error", Message: "x-api-key header is required"}
		}
		if r.Header.Get("Anthropic-Version") == "" {
			return http.StatusBadRequest, &APIError{Type: "invalid_request_error", Message: "anthropic-version: header is required"}
		}
	case providers.ProtocolGemini:
		if strings.TrimSpace(r.Header.Get("X-Goog-Api-Key")) == "" && r.URL.Query().Get("key") == "" {
			return http.StatusForbidden, &APIError{Code: "PERMISSION_DENIED", Message: "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API."}
		}
	default:
		auth := r.Header.Get("Authorization")
		if !strings.HasPrefix(auth, "Bearer ") || strings.TrimSpace(auth[len("Bearer "):]) == "" {
			return http.StatusUnauthorized, &APIError{Type: "invalid_request_error", Message: "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY)."}
		}
	}
	return 0, nil
}

// rateLimitDefaults gives a scripted 429 what the real API sends with one
// unless the script set them: OpenAI's x-ratelimit-* headers and the code
// rate_limit_exceeded (never null), Anthropic's retry-after and
// anthropic-ratelimit-* headers, and for Gemini, whose 429 has no header,
// nothing here (a scripted Retry-After becomes RetryInfo in the body).
func rateLimitDefaults(protocol providers.Protocol, h http.Header, e *APIError, seq int) *APIError {
	set := func(k, v string) {
		if h.Get(k) == "" {
			h.Set(k, v)
		}
	}
	scripted := h.Get("Retry-After") != "" || h.Get("Retry-After-Ms") != ""
	switch protocol {
	case providers.ProtocolOpenAI, providers.ProtocolOpenAIResponses:
		set("X-Request-Id", fmt.Sprintf("req_fake%06d", seq))
		set("X-Ratelimit-Limit-Requests", "500")
		set("X-Ratelimit-Remaining-Requests", "0")
		set("X-Ratelimit-Reset-Requests", "1s")
		set("X-Ratelimit-Limit-Tokens", "30000")
		set("X-Ratelimit-Remaining-Tokens", "29000")
		set("X-Ratelimit-Reset-Tokens", "2ms")
		out := APIError{Message: "Rate limit reached for requests per min (RPM): Limit 500, Used 500, Requested 1. Please try again in 1s.", Type: "requests", Code: "rate_limit_exceeded"}
		if e != nil {
			out = *e
			if out.Code == "" {
				out.Code = "rate_limit_exceeded"
			}
			if out.Type == "" {
				out.Type = "requests"
			}
		}
		return &out
	case providers.ProtocolAnthropic:
		if !scripted {
			set("Retry-After", "1")
		}
		set("Request-Id", fmt.Sprintf("req_fake%06d", seq))
		set("Anthropic-Ratelimit-Requests-Limit", "50")
		set("Anthropic-Ratelimit-Requests-Remaining", "0")
		set("Anthropic-Ratelimit-Requests-Reset", "2026-01-01T00:00:01Z")
	}
	return e
}
