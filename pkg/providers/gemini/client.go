// Package gemini is the codec for Google's Gemini API
// (POST {base}/v1beta/models/{model}:generateContent, and
// :streamGenerateContent?alt=sse for streams; key in x-goog-api-key).
//
// Choices made here:
//   - Roles are "user" and "model". Tool results go back as functionResponse
//     parts of a user turn, the result envelope ({"ok":…,"result"|"error":…})
//     being the response object itself: Gemini reads an "error" key there as
//     the call's failure and anything else as its output. Text that follows
//     the results (driver guidance) joins that same turn.
//   - Thought signatures are returned on the part that carried them: a
//     functionCall's in ToolCall.Signature (never dropped, whatever the
//     reasoning-context mode, as Gemini 3 rejects a tool loop without it), a
//     thought's in its Reasoning, a text part's in a Reasoning part with only
//     a signature placed after that text. The client is also a
//     runner.ChainKeeper.
//   - Function calls without an id (generateContent gives none) get a stable
//     one made from the response id and the call's position, prefixed
//     "gcall_"; such ids are never sent back, since Gemini did not make them.
//   - Tool schemas are translated to Gemini's OpenAPI subset (schema.go);
//     what tavo validates stays the original schema.
//   - --param keys that belong to generationConfig (temperature, topP,
//     thinkingConfig, …) are put there; others go to the top level.
//   - Usage: input_tokens is promptTokenCount (cached tokens included) plus
//     toolUsePromptTokenCount; cached_tokens is cachedContentTokenCount;
//     output_tokens is candidatesTokenCount plus thoughtsTokenCount, the
//     thoughts being reasoning_tokens, as with OpenAI.
//   - Structured output (Request.Schema) sets responseMimeType
//     application/json and the translated responseSchema.
package gemini

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// DefaultBaseURL is used when the configuration names none.
const DefaultBaseURL = "https://generativelanguage.googleapis.com"

// APIVersion is the path segment added to a base URL that has none.
const APIVersion = "v1beta"

var (
	errBaseURL = errors.New("the gemini base URL must be an absolute URL such as https://generativelanguage.googleapis.com")
	errNoModel = errors.New("the gemini protocol needs a model name (-m gemini-2.5-flash)")
)

// Client speaks generateContent to one endpoint.
type Client struct {
	cfg       providers.Config
	base      *url.URL
	urlErr    error
	transport *providers.Transport
}

// New returns a Client for cfg.
func New(cfg providers.Config) *Client {
	c := &Client{cfg: cfg, transport: providers.NewTransport(cfg)}
	c.base, c.urlErr = baseURL(cfg.BaseURL)
	return c
}

// Protocol returns providers.ProtocolGemini.
func (c *Client) Protocol() providers.Protocol { return providers.ProtocolGemini }

// RequiresActiveChain reports true: Gemini wants the thoughts of an
// unresolved tool loop back with their signatures.
func (c *Client) RequiresActiveChain() bool { return true }

// Complete sends req to generateContent (streamGenerateContent?alt=sse when
// req.Stream is set) and returns the response. Errors are *providers.Error.
func (c *Client) Complete(ctx context.Context, req *providers.Request, sink providers.Sink) (*providers.Response, error) {
	if c.urlErr != nil {
		return nil, &providers.Error{Code: providers.ErrProviderError, Message: c.urlErr.Error(), Err: providers.ErrPermanent}
	}
	if strings.TrimSpace(req.Model) == "" {
		return nil, &providers.Error{Code: providers.ErrProviderError, Message: errNoModel.Error(), Err: providers.ErrPermanent}
	}
	body, err := encodeRequest(req)
	if err != nil {
		return nil, &providers.Error{Code: providers.ErrProviderError, Message: "cannot encode the request: " + err.Error(), Err: err}
	}
	hadTools := len(req.Tools) > 0
	call := &providers.Call{
		URL:    c.endpoint(req.Model, req.Stream),
		Header: c.header(req.Stream),
		Body:   body,
		Classify: func(f *providers.HTTPFailure) *providers.Error {
			return classifyHTTP(f, hadTools)
		},
		Decode: func(resp *http.Response, sink providers.Sink) (*providers.Response, error) {
			if req.Stream && isEventStream(resp.Header) {
				return decodeStream(resp.Body, sink, hadTools)
			}
			return decodeJSON(resp.Body, hadTools)
		},
		Secrets: []string{c.cfg.APIKey},
	}
	return c.transport.Do(ctx, call, sink)
}

func (c *Client) header(stream bool) http.Header {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("User-Agent", "tavo")
	if stream {
		h.Set("Accept", "text/event-stream")
	} else {
		h.Set("Accept", "application/json")
	}
	if c.cfg.APIKey != "" {
		name := c.cfg.AuthHeader
		if name == "" {
			name = "X-Goog-Api-Key"
		}
		h.Set(name, c.cfg.APIKey)
	}
	for k, v := range c.cfg.Headers {
		h.Set(k, v)
	}
	return h
}

// baseURL parses the base and adds the API version unless it names one
// (a proxy configured with .../v1beta, or the stable /v1).
func baseURL(base string) (*url.URL, error) {
	if base == "" {
		base = DefaultBaseURL
	}
	u, err := url.Parse(base)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, errBaseURL
	}
	path := strings.TrimRight(u.Path, "/")
	last := path[strings.LastIndexByte(path, '/')+1:]
	if !strings.HasPrefix(last, "v1") {
		path += "/" + APIVersion
	}
	u.Path, u.RawPath = path, ""
	return u, nil
}

// endpoint is the method URL for model: models/{model}:generateContent, or
// the model's own path when it has one (tunedModels/x, models/x).
func (c *Client) endpoint(model string, stream bool) string {
	u := *c.base
	if !strings.Contains(model, "/") {
		model = "models/" + model
	}
	method := ":generateContent"
	q := u.Query()
	if stream {
		method = ":streamGenerateContent"
		q.Set("alt", "sse")
	}
	for k, v := range c.cfg.Query {
		q.Set(k, v)
	}
	u.Path += "/" + model + method
	u.RawQuery = q.Encode()
	return u.String()
}

// isEventStream reports whether the answer is SSE.
func isEventStream(h http.Header) bool {
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(h.Get("Content-Type"))), "text/event-stream")
}
