// Package fake is a scripted fake LLM provider for tests: an HTTP server on
// 127.0.0.1 that answers each request with the next queued Reply, rendered in
// the wire format of the protocol the request used, exactly as the real API
// would (same chunk fields, usage chunk, end marker, error envelopes). It
// speaks all four protocols, picked from the request path: OpenAI Chat
// Completions (render_openai.go), OpenAI Responses (render_responses.go),
// Anthropic Messages (render_anthropic.go) and Gemini generateContent
// (render_gemini.go). A script is protocol-neutral: the same replies play on
// every protocol.
//
// In Go tests:
//
//	srv := fake.NewServer(t)
//	srv.Enqueue(
//		fake.Reply{Status: 429, Headers: map[string]string{"Retry-After": "1"}, Error: &fake.APIError{Message: "slow down"}},
//		fake.Reply{Text: "Hello there", Chunks: 4, Usage: &fake.Usage{InputTokens: 12, OutputTokens: 3}},
//		fake.Fixture(t, "openai-chat/tool_call.stream.http"),
//	)
//	client := openai.New(providers.Config{BaseURL: srv.URL, APIKey: "k"})
//	...
//	body := srv.Requests()[0].Body
//	err := fake.ValidateRequest(providers.ProtocolOpenAI, body)
//
// A request that finds the queue empty gets HTTP 500 with the message
// "fake provider: no scripted reply left for request N", so a test that
// makes one call too many fails loudly.
//
// A GET of a model list ({base}/models, /v1/models, /v1beta/models), as
// `tavo profile diagnose` sends, is answered with the protocol's list naming
// ModelID; it is recorded but consumes no queued reply (models.go).
//
// # Script format
//
// The fakeprovider command (cmd/fakeprovider, or Main) reads a script file:
// a JSON array with one Reply object per expected request, consumed in order.
// Unknown fields are errors. Durations are strings ("150ms") or milliseconds.
//
//	[
//	  {"text": "Hello!", "usage": {"input_tokens": 10, "output_tokens": 2}},
//	  {"tool_calls": [{"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}]},
//	  {"reasoning": "Thinking…", "text": "42", "chunks": 5},
//	  {"status": 429, "headers": {"retry-after": "0"}, "error": {"message": "Rate limit reached", "code": "rate_limit_exceeded"}},
//	  {"status": 502, "body": "<html>bad gateway</html>", "headers": {"content-type": "text/html"}},
//	  {"fixture": "openai-chat/text.stream-usage.http"},
//	  {"steps": [{"text": "Hel"}, {"text": "lo"}, {"cut": true}]},
//	  {"steps": [{"text": "partial"}, {"error": {"message": "The server had an error"}}]},
//	  {"steps": [{"raw": "data: {not json\n\n"}]},
//	  {"steps": [{"delay": "50ms", "text": "slow"}, {"hang": true}]}
//	]
//
// Reply fields (all optional):
//
//   - protocol: "openai", "openai-responses", "anthropic" or "gemini"
//     (default: implied by the request path).
//   - fixture: a recorded .http file, relative to the script's folder or to
//     the fixtures' scenarios/ folder; served byte for byte. raw: the same
//     content inline.
//   - status, headers, body, error: an HTTP error or literal answer. error
//     {message, type, code, param} is rendered as the protocol's envelope;
//     body is sent verbatim. status defaults to 500 with error, 200 with body.
//   - text, reasoning, tool_calls [{id, name, arguments}], chunks (pieces per
//     string, default 3), interleave (alternate the argument fragments of
//     several calls), finish (stop, tool_calls, length, content_filter, or any
//     wire value; default tool_calls when there are calls, else stop), usage
//     {input_tokens, output_tokens, cached_tokens, reasoning_tokens}, model
//     (default: the request's).
//   - steps: the exact sequence instead of text/reasoning/tool_calls; each step
//     is one chunk: text, reasoning, tool_call {index, id, name, arguments},
//     finish, usage, error (an error envelope inside the stream), raw (bytes
//     written as is, framing included), cut (drop the connection), hang
//     (wait until the client leaves), delay (wait first).
//   - stream: true or false forces the answer's shape; default follows the
//     request's "stream". no_done: leave out "data: [DONE]". delay: wait
//     before answering.
//
// Streams are rendered as each real API does. Chat Completions: role in the
// first chunk, "usage":null on every chunk and a last chunk with
// "choices":[] and the usage when the request set
// stream_options.include_usage, then "data: [DONE]". Responses: named events
// with sequence numbers, ending in response.completed (or
// response.incomplete for finish length/content_filter). Anthropic:
// message_start … message_stop, thinking blocks signed. Gemini: CRLF-framed
// chunks without names or end marker, the finish reason and usage on the
// last one. Non-streamed answers are the protocol's one response object.
//
// Where a protocol has no room for what a script says, the renderer does
// what the real API would: Anthropic and Gemini send tool calls one whole
// block (Gemini: one whole part) at a time, so interleaved fragments are
// regrouped per call; Gemini calls carry no id; Gemini puts a scripted
// Retry-After into the 429 body as RetryInfo.retryDelay. The opaque
// reasoning data a provider attaches is made up deterministically
// (ThinkingSignature, ThoughtSignature, EncryptedReasoning), so tests can
// check that a codec sends it back. no_done leaves out message_stop,
// response.completed, or Gemini's last chunk.
//
// Fixtures are found in ../shared/provider-fixtures relative to the
// repository, by walking up from the working directory, or in
// $TAVO_PROVIDER_FIXTURES.
package fake
