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
	"net/http"
	"net/url"
	"strings"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// DefaultBaseURL is used when the configuration names none.
const DefaultBaseURL = "https://api.openai.com/v1"

// Client speaks Chat Completions to one API.
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

// Protocol returns providers.ProtocolOpenAI.
func (c *Client) Protocol() providers.Protocol { return providers.ProtocolOpenAI }

// Complete sends req to {base}/chat/completions and returns the response.
// Errors are *providers.Error.
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
			return classifyHTTP(f, hadTools)
		},
		Decode: func(resp *http.Response, sink providers.Sink) (*providers.Response, error) {
			if req.Stream && isEventStream(resp.Header) {
				return decodeStream(resp.Body, sink, hadTools)
			}
			// A server that ignores "stream" (or answers an error as JSON
			// with 200) still gets read.
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

// endpoint joins the base URL, the path and the configured query.
func endpoint(base string, query map[string]string) (string, error) {
	if base == "" {
		base = DefaultBaseURL
	}
	u, err := url.Parse(base)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "", errBaseURL
	}
	u.Path = strings.TrimRight(u.Path, "/") + "/chat/completions"
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
