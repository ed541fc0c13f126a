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

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/openai"
)

// Client speaks the Responses API to one endpoint.
type Client struct {
	cfg       providers.Config
	info      providers.ProtocolInfo
	endpoint  string
	urlErr    error
	transport *providers.Transport
}

// New returns a Client for cfg.
func New(cfg providers.Config) *Client {
	info, _ := providers.Lookup(providers.ProtocolOpenAIResponses)
	c := &Client{cfg: cfg, info: info, transport: providers.NewTransport(cfg)}
	c.endpoint, c.urlErr = endpoint(cfg.BaseURL, cfg.Query)
	return c
}

// Protocol returns providers.ProtocolOpenAIResponses.
func (c *Client) Protocol() providers.Protocol { return providers.ProtocolOpenAIResponses }

// Complete sends req to {base}/responses and returns the response. Errors
// are *providers.Error.
func (c *Client) Complete(ctx context.Context, req *providers.Request, sink providers.Sink) (*providers.Response, error) {
	return c.transport.Complete(ctx, &providers.Exchange{
		URL: c.endpoint, Err: c.urlErr, Header: c.info.RequestHeader(c.cfg, req.Stream), Secret: c.cfg.APIKey,
		Encode: encodeRequest, Classify: openai.ClassifyHTTP, DecodeStream: decodeStream, DecodeJSON: decodeJSON,
	}, req, sink)
}

// endpoint joins the base URL, /responses and the configured query.
func endpoint(base string, query map[string]string) (string, error) {
	info, _ := providers.Lookup(providers.ProtocolOpenAIResponses)
	return info.Endpoint(base, "/responses", query)
}
