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
	"maps"
	"net/url"
	"strings"

	"github.com/tavo-cli/tavo/pkg/providers"
)

var errNoModel = errors.New("the gemini protocol needs a model name (-m gemini-2.5-flash)")

// Client speaks generateContent to one endpoint.
type Client struct {
	cfg       providers.Config
	info      providers.ProtocolInfo
	base      *url.URL
	urlErr    error
	transport *providers.Transport
}

// New returns a Client for cfg.
func New(cfg providers.Config) *Client {
	info, _ := providers.Lookup(providers.ProtocolGemini)
	c := &Client{cfg: cfg, info: info, transport: providers.NewTransport(cfg)}
	// The API root is v1beta below the base, unless the base names a
	// version itself (a proxy configured with …/v1beta, or the stable /v1).
	c.base, c.urlErr = info.APIRoot(cfg.BaseURL)
	return c
}

// Protocol returns providers.ProtocolGemini.
func (c *Client) Protocol() providers.Protocol { return providers.ProtocolGemini }

// RequiresActiveChain reports true: Gemini wants the thoughts of an
// unresolved tool loop back with their signatures.
func (c *Client) RequiresActiveChain() bool { return true }

// ChainSignaturesOnly reports true: of that reasoning the API needs only
// the thoughtSignatures, so where --reasoning-context would drop it the
// thought summaries are not resent (runner.SignatureChainKeeper).
func (c *Client) ChainSignaturesOnly() bool { return true }

// Complete sends req to generateContent (streamGenerateContent?alt=sse when
// req.Stream is set) and returns the response. Errors are *providers.Error.
func (c *Client) Complete(ctx context.Context, req *providers.Request, sink providers.Sink) (*providers.Response, error) {
	x := &providers.Exchange{
		Err: c.urlErr, Header: c.info.RequestHeader(c.cfg, req.Stream), Secret: c.cfg.APIKey,
		Encode: encodeRequest, Classify: classifyHTTP, DecodeStream: decodeStream, DecodeJSON: decodeJSON,
	}
	// The model is part of the URL: build it only once the base and the
	// model are known to be good.
	switch {
	case x.Err != nil:
	case strings.TrimSpace(req.Model) == "":
		x.Err = errNoModel
	default:
		x.URL = c.endpoint(req.Model, req.Stream)
	}
	return c.transport.Complete(ctx, x, req, sink)
}

// endpoint is the method URL for model: models/{model}:generateContent, or
// the model's own path when it has one (tunedModels/x, models/x).
func (c *Client) endpoint(model string, stream bool) string {
	if !strings.Contains(model, "/") {
		model = "models/" + model
	}
	method, query := ":generateContent", c.cfg.Query
	if stream {
		method = ":streamGenerateContent"
		query = map[string]string{"alt": "sse"}
		maps.Copy(query, c.cfg.Query)
	}
	return providers.JoinURL(c.base, "/"+model+method, query)
}
