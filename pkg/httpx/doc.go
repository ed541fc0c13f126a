// Package httpx is tavo's one HTTP layer: every request to a model server,
// a search API, a fetched page or an MCP server goes through a client built
// here, so that each phase of an exchange has a bound and no request can
// hang forever, and through Client.Do (on github.com/go-resty/resty/v2) when
// it is retried.
//
// Timeouts are per phase, never overall: connecting, the TLS handshake, the
// wait for response headers, and the silence between two reads of the body.
// A model's stream may rightly run for an hour; what must not happen is an
// hour without a byte. The caller's context bounds the whole exchange.
package httpx
