package mcptest

import (
	"net/http"
	"net/http/httptest"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPServer is the test server over streamable HTTP.
type HTTPServer struct {
	*httptest.Server

	mu      sync.Mutex
	headers []http.Header
	crashed bool
}

// NewHTTPServer starts the test server on 127.0.0.1; its URL is the MCP
// endpoint. When header and value are given, requests without that header
// value are refused with 401. Its Crash tool drops every connection, and
// the server drops every later request as a dead server would.
func NewHTTPServer(header, value string) *HTTPServer {
	h := &HTTPServer{}
	srv := NewServer(func() {
		h.mu.Lock()
		h.crashed = true
		h.mu.Unlock()
		h.CloseClientConnections()
	})
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		h.headers = append(h.headers, r.Header.Clone())
		crashed := h.crashed
		h.mu.Unlock()
		if crashed {
			if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
				conn.Close()
			}
			return
		}
		if header != "" && r.Header.Get(header) != value {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		mcpHandler.ServeHTTP(w, r)
	}))
	return h
}

// Headers returns the headers of the requests received so far.
func (h *HTTPServer) Headers() []http.Header {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]http.Header(nil), h.headers...)
}
