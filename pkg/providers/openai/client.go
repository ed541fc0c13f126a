// Package openai is the codec for the OpenAI Chat Completions protocol
// (POST {base}/chat/completions), spoken by OpenAI itself, Azure OpenAI and
// most compatible servers (Ollama, vLLM, llama.cpp, OpenRouter, DeepSeek,
// Groq, Mistral, xAI, Moonshot).
//
// Choices made for compatible servers: system text is sent with role
// "system" (not "developer", which many servers reject); the output limit is
// sent as max_completion_tokens, the field OpenAI's reasoning models require
// (servers that only know max_tokens ignore it: pass --param max_tokens=N, and
// a nil param removes a field); reasoning arrives as delta.reasoning_content
// (DeepSeek, vLLM, llama.cpp) or delta.reasoning (OpenRouter, Ollama) and is
// sent back as reasoning_content.
package openai

import (
	"context"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// Client speaks Chat Completions to one API.
type Client struct {
	cfg       providers.Config
	info      providers.ProtocolInfo
	endpoint  string
	urlErr    error
	transport *providers.Transport
}

// New returns a Client for cfg.
func New(cfg providers.Config) *Client {
	info, _ := providers.Lookup(providers.ProtocolOpenAI)
	c := &Client{cfg: cfg, info: info, transport: providers.NewTransport(cfg)}
	c.endpoint, c.urlErr = endpoint(cfg.BaseURL, cfg.Query)
	return c
}

// Protocol returns providers.ProtocolOpenAI.
func (c *Client) Protocol() providers.Protocol { return providers.ProtocolOpenAI }

// Complete sends req to {base}/chat/completions and returns the response.
// Errors are *providers.Error.
func (c *Client) Complete(ctx context.Context, req *providers.Request, sink providers.Sink) (*providers.Response, error) {
	return c.transport.Complete(ctx, &providers.Exchange{
		URL: c.endpoint, Err: c.urlErr, Header: c.info.RequestHeader(c.cfg, req.Stream), Secret: c.cfg.APIKey,
		Encode: encodeRequest, Classify: classifyHTTP, DecodeStream: decodeStream, DecodeJSON: decodeJSON,
	}, req, sink)
}

// endpoint joins the base URL, the path and the configured query.
func endpoint(base string, query map[string]string) (string, error) {
	info, _ := providers.Lookup(providers.ProtocolOpenAI)
	return info.Endpoint(base, "/chat/completions", query)
}
