package extensions

import (
	"bytes"
	"net/http"
	"os/exec"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/httpx"
)

// stdioCommand is the process of a stdio server: command then args, the
// explicit environment of processEnv, its own process group, and its stderr
// kept (the end of it) for error messages.
func stdioCommand(cfg *config.MCPServer, getenv func(string) string) (*exec.Cmd, *syncTail) {
	argv := append(append([]string(nil), cfg.Command...), cfg.Args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = processEnv(cfg.Env, getenv)
	stderr := &syncTail{tail: tailBuffer{max: stderrTail}}
	cmd.Stderr = stderr
	setProcessGroup(cmd)
	return cmd, stderr
}

// httpTransport is the streamable-HTTP transport of a URL server, sending
// the configured headers (values may name $VAR of tavo's environment).
func httpTransport(cfg *config.MCPServer, getenv func(string) string) mcp.Transport {
	headers := http.Header{}
	for k, v := range cfg.Headers {
		headers.Set(k, expand(v, getenv))
	}
	return &mcp.StreamableClientTransport{
		Endpoint: cfg.URL,
		// The shared HTTP layer bounds connecting and the TLS handshake;
		// each call's own timeout (tool_timeout) bounds the answer.
		HTTPClient: &http.Client{Transport: &headerTransport{base: httpx.WithTimeouts(httpx.NewTransport(httpx.MCPTimeouts), httpx.MCPTimeouts), headers: headers}},
		// tavo only calls tools; it needs no server-initiated messages, and
		// without the standing stream a session closes at once.
		DisableStandaloneSSE: true,
		// A server that drops a call's stream is reported, not retried.
		MaxRetries: -1,
	}
}

// headerTransport adds fixed headers to every request.
type headerTransport struct {
	base    http.RoundTripper
	headers http.Header
}

func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for k, vs := range t.headers {
		req.Header[k] = vs
	}
	return t.base.RoundTrip(req)
}

// syncTail is a tailBuffer safe for the process's writer and tavo's reader.
type syncTail struct {
	mu   sync.Mutex
	tail tailBuffer
}

func (s *syncTail) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tail.Write(p)
}

// lastLine returns the last non-empty line written, at most 300 bytes; ""
// for a nil receiver.
func (s *syncTail) lastLine() string {
	if s == nil {
		return ""
	}
	s.mu.Lock()
	b := bytes.TrimSpace(s.tail.buf)
	s.mu.Unlock()
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		b = b[i+1:]
	}
	return oneLine(strings.ToValidUTF8(string(b), "\uFFFD"), 300)
}
