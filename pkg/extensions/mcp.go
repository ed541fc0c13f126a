package extensions

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tavo-cli/tavo/pkg/config"
)

// MCP limits.
const (
	// DefaultConnectTimeout bounds starting (or reaching) one server and
	// listing its tools, so that a server that never answers costs a search
	// a clear error, not the whole call's timeout.
	DefaultConnectTimeout = 30 * time.Second
	// DefaultCloseTimeout bounds closing one server at the end of a command;
	// a stdio server still running then is killed with its process group.
	DefaultCloseTimeout = 5 * time.Second
	// maxListedTools guards against a server that lists tools without end.
	maxListedTools = 1000
)

// MCP reaches the configured MCP servers. Each server is connected the first
// time its tools are needed and stays connected until Close; a server that
// failed to connect, or stopped, stays failed for the life of the MCP value
// so that a broken server is never restarted behind the model's back. It is
// safe for concurrent use.
type MCP struct {
	servers map[string]*server
	names   []string

	// ConnectTimeout bounds connecting and listing one server; 0 means
	// DefaultConnectTimeout.
	ConnectTimeout time.Duration
	// CloseTimeout bounds closing one server; 0 means DefaultCloseTimeout.
	CloseTimeout time.Duration
}

// NewMCP returns a client for servers (from [mcp.NAME] in the config);
// nothing is started yet. getenv reads tavo's environment for $VAR
// references in env and headers; version is tavo's, announced to servers.
func NewMCP(servers map[string]*config.MCPServer, getenv func(string) string, version string) *MCP {
	m := &MCP{servers: map[string]*server{}}
	for name, cfg := range servers {
		if cfg == nil {
			continue
		}
		m.servers[name] = newServer(name, cfg, getenv, version)
		m.names = append(m.names, name)
	}
	sort.Strings(m.names)
	return m
}

// Names returns the configured server names, sorted.
func (m *MCP) Names() []string {
	if m == nil {
		return nil
	}
	return append([]string(nil), m.names...)
}

// Has reports whether a server called name is configured.
func (m *MCP) Has(name string) bool {
	if m == nil {
		return false
	}
	_, ok := m.servers[name]
	return ok
}

// Tools connects the server called name when it is not yet connected and
// returns its tools.
func (m *MCP) Tools(ctx context.Context, name string) ([]*MCPTool, error) {
	s := m.servers[name]
	if s == nil {
		return nil, fmt.Errorf("no MCP server named %q is configured", name)
	}
	return s.connect(ctx, m.connectTimeout())
}

// ServerError is a server that could not be connected or listed.
type ServerError struct {
	Server string
	Err    error
}

func (e *ServerError) Error() string { return fmt.Sprintf("MCP server %q: %v", e.Server, e.Err) }

func (e *ServerError) Unwrap() error { return e.Err }

// AllTools connects the servers called names (every server when names is
// empty), in parallel, and returns their tools in server order with one
// ServerError per server that failed.
func (m *MCP) AllTools(ctx context.Context, names ...string) ([]*MCPTool, []*ServerError) {
	if m == nil {
		return nil, nil
	}
	if len(names) == 0 {
		names = m.names
	}
	results := make([][]*MCPTool, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Go(func() { results[i], errs[i] = m.Tools(ctx, name) })
	}
	wg.Wait()
	var all []*MCPTool
	var failed []*ServerError
	for i, name := range names {
		if errs[i] != nil {
			failed = append(failed, &ServerError{Server: name, Err: errs[i]})
			continue
		}
		all = append(all, results[i]...)
	}
	return all, failed
}

// Close shuts every connected server down, in parallel, each within
// CloseTimeout; a stdio server that does not exit by then is killed with
// its process group. It returns the first error.
func (m *MCP) Close() error {
	if m == nil {
		return nil
	}
	errs := make([]error, len(m.names))
	var wg sync.WaitGroup
	for i, name := range m.names {
		wg.Go(func() { errs[i] = m.servers[name].close(m.closeTimeout()) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

func (m *MCP) connectTimeout() time.Duration {
	if m.ConnectTimeout > 0 {
		return m.ConnectTimeout
	}
	return DefaultConnectTimeout
}

func (m *MCP) closeTimeout() time.Duration {
	if m.CloseTimeout > 0 {
		return m.CloseTimeout
	}
	return DefaultCloseTimeout
}

// server is one configured MCP server and its connection.
type server struct {
	name    string
	cfg     *config.MCPServer
	getenv  func(string) string
	version string

	// sem serialises connecting; a caller waits for it with its context.
	sem chan struct{}

	mu      sync.Mutex
	session *mcp.ClientSession
	cmd     *exec.Cmd
	stderr  *syncTail
	tools   []*MCPTool
	err     error         // why connecting failed; sticky
	ended   chan struct{} // closed when the session ends
	closed  bool
}

func newServer(name string, cfg *config.MCPServer, getenv func(string) string, version string) *server {
	return &server{name: name, cfg: cfg, getenv: getenv, version: version, sem: make(chan struct{}, 1)}
}

// connect returns the server's tools, connecting first when needed.
func (s *server) connect(ctx context.Context, timeout time.Duration) ([]*MCPTool, error) {
	select {
	case s.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-s.sem }()

	s.mu.Lock()
	switch {
	case s.closed:
		s.mu.Unlock()
		return nil, errors.New("the server was already shut down")
	case s.err != nil:
		err := s.err
		s.mu.Unlock()
		return nil, err
	case s.session != nil:
		ts := s.tools
		s.mu.Unlock()
		return ts, nil
	}
	s.mu.Unlock()

	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	session, cmd, stderr, err := s.dial(cctx)
	var listed []*mcp.Tool
	if err == nil {
		listed, err = listTools(cctx, session)
		if err != nil {
			err = fmt.Errorf("listing its tools: %w", err)
		}
	}
	if err != nil {
		if session != nil {
			closeSession(session, cmd, time.Second)
		}
		if ctx.Err() != nil {
			// The caller gave up; a later caller may try again.
			return nil, ctx.Err()
		}
		err = s.describe(err, cctx, timeout, stderr)
		s.mu.Lock()
		s.err = err
		s.mu.Unlock()
		return nil, err
	}

	ended := make(chan struct{})
	go func() {
		_ = session.Wait()
		close(ended)
	}()
	ts := make([]*MCPTool, 0, len(listed))
	for _, t := range listed {
		ts = append(ts, newMCPTool(s, t))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		closeSession(session, cmd, time.Second)
		return nil, errors.New("the server was already shut down")
	}
	s.session, s.cmd, s.stderr, s.tools, s.ended = session, cmd, stderr, ts, ended
	return ts, nil
}

// describe phrases a failure to connect in one line.
func (s *server) describe(err error, cctx context.Context, timeout time.Duration, stderr *syncTail) error {
	if errors.Is(err, context.DeadlineExceeded) && cctx.Err() != nil {
		err = fmt.Errorf("it did not answer within %s", timeout)
	} else {
		msg := err.Error()
		if len(s.cfg.Command) > 0 {
			// The model may read this: name the program, not where it lives.
			msg = strings.ReplaceAll(msg, s.cfg.Command[0], filepath.Base(s.cfg.Command[0]))
		}
		err = fmt.Errorf("connecting failed: %s", oneLine(msg, 300))
	}
	if line := stderr.lastLine(); line != "" {
		err = fmt.Errorf("%w (its stderr ends with: %s)", err, line)
	}
	return err
}

// dial starts or reaches the server and initialises the session.
func (s *server) dial(ctx context.Context) (*mcp.ClientSession, *exec.Cmd, *syncTail, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "tavo", Version: s.version}, &mcp.ClientOptions{
		// tavo offers the server nothing: no roots, sampling or elicitation.
		Capabilities: &mcp.ClientCapabilities{},
	})
	if s.cfg.URL != "" {
		session, err := client.Connect(ctx, httpTransport(s.cfg, s.getenv), nil)
		return session, nil, nil, err
	}
	cmd, stderr := stdioCommand(s.cfg, s.getenv)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: time.Second}, nil)
	if err != nil {
		// Connect closes what it started, but a server's own children
		// must not outlive a failed start either.
		_ = killProcessGroup(cmd)
		return nil, nil, stderr, err
	}
	return session, cmd, stderr, nil
}

// listTools lists every tool of the session, page by page.
func listTools(ctx context.Context, session *mcp.ClientSession) ([]*mcp.Tool, error) {
	var ts []*mcp.Tool
	for t, err := range session.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		if len(ts) >= maxListedTools {
			return nil, fmt.Errorf("the server lists more than %d tools", maxListedTools)
		}
		ts = append(ts, t)
	}
	return ts, nil
}

// live returns the session for a call, or why there is none.
func (s *server) live() (*mcp.ClientSession, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return nil, fmt.Errorf("the MCP server %q was already shut down", s.name)
	case s.session == nil:
		return nil, fmt.Errorf("the MCP server %q is not connected", s.name)
	}
	select {
	case <-s.ended:
		return nil, fmt.Errorf("the MCP server %q has stopped%s; its tools cannot be called again in this run", s.name, s.exitNote())
	default:
	}
	return s.session, nil
}

// hasEnded reports whether the session ended, waiting briefly for the
// watcher to notice: a call that failed because the server died usually
// learns it a moment before the watcher does.
func (s *server) hasEnded() bool {
	s.mu.Lock()
	ended := s.ended
	s.mu.Unlock()
	if ended == nil {
		return false
	}
	select {
	case <-ended:
		return true
	case <-time.After(200 * time.Millisecond):
		return false
	}
}

// exitNote says how a stdio server ended, for error messages; s.mu must be
// held. The exit status is read only once the session has ended, when the
// SDK has finished waiting for the process.
func (s *server) exitNote() string {
	var note string
	select {
	case <-s.ended:
		if s.cmd != nil && s.cmd.ProcessState != nil {
			note = " (" + s.cmd.ProcessState.String() + ")"
		}
	default:
	}
	if line := s.stderr.lastLine(); line != "" {
		note += "; its stderr ends with: " + line
	}
	return note
}

// close shuts the session down within timeout.
func (s *server) close(timeout time.Duration) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	session, cmd := s.session, s.cmd
	s.mu.Unlock()
	if session == nil {
		return nil
	}
	if !closeSession(session, cmd, timeout) {
		return fmt.Errorf("MCP server %q did not shut down within %s and was killed", s.name, timeout)
	}
	return nil
}

// closeSession closes session and reports whether it closed within timeout;
// a stdio server's process group is killed in any case, so that nothing it
// started outlives tavo.
func closeSession(session *mcp.ClientSession, cmd *exec.Cmd, timeout time.Duration) bool {
	done := make(chan struct{})
	go func() {
		_ = session.Close()
		close(done)
	}()
	ok := true
	select {
	case <-done:
	case <-time.After(timeout):
		ok = false
	}
	if cmd != nil {
		_ = killProcessGroup(cmd)
	}
	return ok
}

// oneLine folds s onto one line of at most max bytes.
func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > max {
		cut := max
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}
