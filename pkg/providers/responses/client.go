// Package responses is the codec for OpenAI's Responses API
// (POST {base}/responses, key as Authorization: Bearer).
//
// Choices made here:
//   - Requests are stateless: store is false and, for reasoning models,
//     include asks for reasoning.encrypted_content, so reasoning items can be
//     replayed in later requests (id, summary and encrypted_content) without
//     OpenAI keeping anything. Models known to reject encrypted reasoning
//     (gpt-4*, gpt-3.5*, chatgpt-*, gpt-5*-chat*) are not asked for it; a
//     reasoning item without encrypted_content is never sent back, as
//     store:false could not resolve it. --param store=true or include=null
//     override either choice.
//   - System text is "instructions"; the conversation is "input" items:
//     messages, function_call, function_call_output, reasoning. Function
//     calls are sent without their item id, which would tie them to a
//     stored reasoning item.
//   - Reasoning summaries are not asked for (reasoning.summary is refused by
//     non-reasoning models); pass --param reasoning='{"summary":"auto"}' to
//     see them. Several summary parts are joined with a blank line.
//   - Tools are sent with strict false: tavo's schemas have optional
//     properties, which strict mode forbids; tavo validates arguments itself.
//   - Structured output (Request.Schema) is text.format {type: json_schema,
//     name, schema, strict}, strict when the schema fits OpenAI's strict
//     subset (openai.StrictSchema).
//   - Usage: input_tokens includes cached tokens
//     (input_tokens_details.cached_tokens); output_tokens includes
//     reasoning tokens (output_tokens_details.reasoning_tokens).
package responses

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/openai"
)

// DefaultBaseURL is used when the configuration names none.
const DefaultBaseURL = openai.DefaultBaseURL

var errBaseURL = errors.New("the openai-responses base URL must be an absolute URL such as https://api.openai.com/v1")

// Client speaks the Responses API to one endpoint.
type Client struct {
	cfg       providers.Config
	endpoint  string
	urlErr    error
	transport *providers.Transport
}

// New returns a Client for cfg.
func New(cfg providers.Config) *Client {
	c := &Client{cfg: cfg, transport: providers.NewTransport(cfg)}
	c.endpoint, c.urlErr = endpoint(cfg.BaseURL, cfg.Query)
	return c
}

// Protocol returns providers.ProtocolOpenAIResponses.
func (c *Client) Protocol() providers.Protocol { return providers.ProtocolOpenAIResponses }

// Complete sends req to {base}/responses and returns the response. Errors
// are *providers.Error.
func (c *Client) Complete(ctx context.Context, req *providers.Request, sink providers.Sink) (*providers.Response, error) {
	if c.urlErr != nil {
		return nil, &providers.Error{Code: providers.ErrProviderError, Message: c.urlErr.Error(), Err: providers.ErrPermanent}
	}
	body, err := encodeRequest(req)
	if err != nil {
		return nil, &providers.Error{Code: providers.ErrProviderError, Message: "cannot encode the request: " + err.Error(), Err: err}
	}
	hadTools := len(req.Tools) > 0
	call := &providers.Call{
		URL:    c.endpoint,
		Header: c.header(req.Stream),
		Body:   body,
		Classify: func(f *providers.HTTPFailure) *providers.Error {
			return openai.ClassifyHTTP(f, hadTools)
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

// header builds the request headers: content type, auth, then the profile's
// own headers, which may override either.
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
		if c.cfg.AuthHeader != "" {
			h.Set(c.cfg.AuthHeader, c.cfg.APIKey)
		} else {
			h.Set("Authorization", "Bearer "+c.cfg.APIKey)
		}
	}
	for k, v := range c.cfg.Headers {
		h.Set(k, v)
	}
	return h
}

// endpoint joins the base URL, /responses and the configured query.
func endpoint(base string, query map[string]string) (string, error) {
	if base == "" {
		base = DefaultBaseURL
	}
	u, err := url.Parse(base)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "", errBaseURL
	}
	u.Path = strings.TrimRight(u.Path, "/") + "/responses"
	u.RawPath = ""
	if len(query) > 0 {
		q := u.Query()
		for k, v := range query {
			q.Set(k, v)
		}
		u.RawQuery = q.Encode()
	}
	return u.String(), nil
}

// isEventStream reports whether the answer is SSE.
func isEventStream(h http.Header) bool {
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(h.Get("Content-Type"))), "text/event-stream")
}
