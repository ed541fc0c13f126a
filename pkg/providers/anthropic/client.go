// Package anthropic is the codec for Anthropic's Messages API
// (POST {base}/v1/messages, header anthropic-version: 2023-06-01, key in
// x-api-key).
//
// Choices made here:
//   - max_tokens is required by the API; tavo sends Request.MaxOutputTokens,
//     or DefaultMaxTokens (8192) when it is not set. Every current Claude model
//     accepts 8192; the retired Claude 3 Haiku/Opus need --max-output-tokens
//     4096. Extended thinking counts inside max_tokens, which must be above
//     budget_tokens: a budget given without a limit gets budget + 8192 (room
//     for the answer), and a limit at or below the budget, or a budget under
//     1024, is refused before anything is sent (CheckRequest, exit 2).
//   - Extended thinking is off unless asked for (--param
//     thinking='{"type":"enabled","budget_tokens":2048}'). Thinking and
//     redacted_thinking blocks are kept verbatim with their signatures and
//     sent back unchanged; the client is a runner.ChainKeeper, so they are
//     always sent while a tool loop is unresolved, as the API requires.
//   - Consecutive messages of one role are merged: tool results become
//     tool_result blocks of a user message, and text that follows them (driver
//     guidance) joins that same message after the results.
//   - Usage: input_tokens counts every prompt token, cached or not
//     (input_tokens + cache_read_input_tokens + cache_creation_input_tokens on
//     the wire); cached_tokens counts cache reads. Anthropic does not report
//     thinking tokens apart, so reasoning_tokens stays 0.
//   - Structured output (Request.Schema) is sent as output_config.format
//     {type: json_schema, schema}.
package anthropic

import (
	"context"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// DefaultMaxTokens is max_tokens when the request sets no output limit.
const DefaultMaxTokens = 8192

// Client speaks the Messages API to one endpoint.
type Client struct {
	cfg       providers.Config
	info      providers.ProtocolInfo
	endpoint  string
	urlErr    error
	transport *providers.Transport
}

// New returns a Client for cfg.
func New(cfg providers.Config) *Client {
	info, _ := providers.Lookup(providers.ProtocolAnthropic)
	c := &Client{cfg: cfg, info: info, transport: providers.NewTransport(cfg)}
	c.endpoint, c.urlErr = endpoint(cfg.BaseURL, cfg.Query)
	return c
}

// Protocol returns providers.ProtocolAnthropic.
func (c *Client) Protocol() providers.Protocol { return providers.ProtocolAnthropic }

// RequiresActiveChain reports true: the API rejects a tool loop whose last
// assistant turn lost its thinking blocks when thinking is enabled.
func (c *Client) RequiresActiveChain() bool { return true }

// Complete sends req to {base}/v1/messages and returns the response. Errors
// are *providers.Error.
func (c *Client) Complete(ctx context.Context, req *providers.Request, sink providers.Sink) (*providers.Response, error) {
	return c.transport.Complete(ctx, &providers.Exchange{
		URL: c.endpoint, Err: c.urlErr, Header: c.info.RequestHeader(c.cfg, req.Stream), Secret: c.cfg.APIKey,
		Encode: encodeRequest, Classify: classifyHTTP, DecodeStream: decodeStream, DecodeJSON: decodeJSON,
	}, req, sink)
}

// endpoint joins the base URL, /v1/messages and the configured query. A base
// that already ends in /v1 (a proxy configured with it) gets no second /v1
// (see providers.ProtocolInfo.APIRoot). The profile's headers may override
// the fixed anthropic-version (a newer one) or add anthropic-beta.
func endpoint(base string, query map[string]string) (string, error) {
	info, _ := providers.Lookup(providers.ProtocolAnthropic)
	return info.Endpoint(base, "/messages", query)
}
