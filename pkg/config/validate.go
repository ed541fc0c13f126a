package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"golang.org/x/net/http/httpguts"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/search"
)

// Protocols lists the protocol names a profile or --provider may use, in
// the order of the protocol table (providers.ProtocolNames), which is where
// they are defined.
var Protocols = providers.ProtocolNames()

// ReasoningContexts lists the values of reasoning_context.
var ReasoningContexts = []string{"off", "since-user", "active-chain"}

var (
	searchEngines = search.EngineNames()
	searchDepths  = []string{"basic", "advanced", "fast", "ultra-fast"}
	// searchTopics and searchTimeRanges are the values of SPEC §5.
	searchTopics     = []string{"general", "news", "finance"}
	searchTimeRanges = []string{"day", "week", "month", "year"}
)

// ValidateProfileName checks that name can name a profile: 1–64 letters,
// digits, '.', '_' or '-', starting with a letter or digit.
func ValidateProfileName(name string) error {
	if !isProfileName(name) {
		return fmt.Errorf("invalid profile name %q: use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit", name)
	}
	return nil
}

// Validate checks every section of c and returns the first problem as an
// *Error, or nil.
func (c *Config) Validate() error {
	for _, name := range sortedKeys(c.Profiles) {
		if err := ValidateProfileName(name); err != nil {
			return &Error{Msg: err.Error(), Err: err}
		}
		p := c.Profiles[name]
		if p == nil {
			return errorf("profile %q is empty", name)
		}
		if err := p.Validate(); err != nil {
			return &Error{Msg: fmt.Sprintf("profile %q: %v", name, err), Err: err}
		}
	}
	if err := c.Search.validate(); err != nil {
		return &Error{Msg: "search: " + err.Error(), Err: err}
	}
	for _, name := range sortedKeys(c.Tools) {
		if err := validateCommandTool(name, c.Tools[name]); err != nil {
			return &Error{Msg: fmt.Sprintf("tools.%s: %v", name, err), Err: err}
		}
	}
	for _, name := range sortedKeys(c.MCP) {
		if err := validateMCP(c.MCP[name]); err != nil {
			return &Error{Msg: fmt.Sprintf("mcp.%s: %v", name, err), Err: err}
		}
	}
	if err := c.Retention.validate(); err != nil {
		return &Error{Msg: "retention: " + err.Error(), Err: err}
	}
	if err := c.Fetch.validate(); err != nil {
		return &Error{Msg: "fetch: " + err.Error(), Err: err}
	}
	if err := c.Subagents.validate(); err != nil {
		return &Error{Msg: "subagents: " + err.Error(), Err: err}
	}
	return nil
}

// Validate checks p's values. Messages never repeat a value that could be a
// secret (api_key_env, header values).
func (p *Profile) Validate() error {
	if _, ok := providers.Lookup(providers.Protocol(p.Protocol)); p.Protocol != "" && !ok {
		return fmt.Errorf("protocol %q is not one of %s", p.Protocol, strings.Join(providers.ProtocolNames(), ", "))
	}
	if p.BaseURL != "" {
		if err := ValidateBaseURL(p.BaseURL); err != nil {
			return fmt.Errorf("base_url: %w", err)
		}
	}
	if err := validateEnvName("api_key_env", p.APIKeyEnv); err != nil {
		return err
	}
	if p.AuthHeader != "" && !httpguts.ValidHeaderFieldName(p.AuthHeader) {
		return fmt.Errorf("auth_header %q is not a valid HTTP header name", p.AuthHeader)
	}
	if err := validateHeaders(p.Headers); err != nil {
		return err
	}
	for k := range p.Query {
		if k == "" {
			return errors.New("query: empty parameter name")
		}
	}
	for _, n := range []struct {
		r Range[int]
		v int
	}{
		{ContextWindowRange, p.ContextWindow},
		{FetchContextWindowRange, p.FetchContextWindow},
		{MaxOutputTokensRange, p.MaxOutputTokens},
		{MaxRoundsRange, p.MaxRounds},
		{MaxToolCallsRange, p.MaxToolCalls},
	} {
		// Zero means unset (TOML cannot tell them apart): the default applies.
		if n.v != 0 {
			if err := n.r.CheckKey(n.v); err != nil {
				return err
			}
		}
	}
	if p.ContextWindow > 0 && p.MaxOutputTokens >= p.ContextWindow {
		return fmt.Errorf("max_output_tokens (%d) must be smaller than context_window (%d)", p.MaxOutputTokens, p.ContextWindow)
	}
	for _, d := range []struct {
		r Range[time.Duration]
		v string
	}{
		{ToolTimeoutRange, p.ToolTimeout},
		{TimeoutRange, p.Timeout},
		{ResponseTimeoutRange, p.ResponseTimeout},
		{StreamIdleTimeoutRange, p.StreamIdleTimeout},
		{CodeTimeoutRange, p.CodeTimeout},
	} {
		if d.v != "" {
			if _, err := parseDurationIn(d.r, d.v); err != nil {
				return err
			}
		}
	}
	if p.ReasoningContext != "" && !slices.Contains(ReasoningContexts, p.ReasoningContext) {
		return fmt.Errorf("reasoning_context %q is not one of %s", p.ReasoningContext, strings.Join(ReasoningContexts, ", "))
	}
	for k := range p.Params {
		if k == "" {
			return errors.New("params: empty field name")
		}
	}
	proto := p.Protocol
	if proto == "" {
		proto = DefaultProtocol
	}
	if err := checkOwnedParams(providers.Protocol(proto), "params.", p.Params, nil); err != nil {
		return err
	}
	if pr := p.Prices; pr != nil && (pr.InputPerMTok < 0 || pr.OutputPerMTok < 0 || pr.CachedInputPerMTok < 0) {
		return errors.New("prices must not be negative")
	}
	return nil
}

// ValidateBaseURL checks that s is an absolute http or https URL. The error
// never repeats s, which may carry credentials.
func ValidateBaseURL(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return fmt.Errorf("not a valid URL: %v", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return errors.New("must start with http:// or https://")
	}
	if u.Host == "" {
		return errors.New("has no host")
	}
	return nil
}

func validateEnvName(key, name string) error {
	if name != "" && !isEnvName(name) {
		// The value is not repeated: people paste the key itself here.
		return fmt.Errorf("%s must name an environment variable (like OPENAI_API_KEY), not hold the key itself", key)
	}
	return nil
}

func validateHeaders(h map[string]string) error {
	for _, k := range sortedKeys(h) {
		if !httpguts.ValidHeaderFieldName(k) {
			return fmt.Errorf("headers: %q is not a valid HTTP header name", k)
		}
		if !httpguts.ValidHeaderFieldValue(h[k]) {
			return fmt.Errorf("headers: the value of %q is not a valid HTTP header value", k)
		}
	}
	return nil
}

func (s *SearchConfig) validate() error {
	for _, name := range sortedKeys(s.APIs) {
		a := s.APIs[name]
		if a == nil {
			return fmt.Errorf("apis.%s is empty", name)
		}
		if !slices.Contains(searchEngines, a.Engine) {
			return fmt.Errorf("apis.%s: engine %q is not one of %s", name, a.Engine, strings.Join(searchEngines, ", "))
		}
		if err := validateEnvName("api_key_env", a.APIKeyEnv); err != nil {
			return fmt.Errorf("apis.%s: %w", name, err)
		}
		// A missing base_url or key is not a load error: it only makes that
		// API incomplete, which hides tavo_web_search (SPEC §7).
		if a.BaseURL != "" {
			if err := ValidateBaseURL(a.BaseURL); err != nil {
				return fmt.Errorf("apis.%s: base_url: %w", name, err)
			}
		}
		if a.APIKey != "" && a.APIKeyEnv != "" {
			return fmt.Errorf("apis.%s: set api_key or api_key_env, not both", name)
		}
		if a.Timeout != "" {
			if d, err := time.ParseDuration(a.Timeout); err != nil || d <= 0 {
				return fmt.Errorf("apis.%s: timeout %q is not a positive duration like 10s", name, a.Timeout)
			}
		}
		if a.Topic != "" && !slices.Contains(searchTopics, a.Topic) {
			return fmt.Errorf("apis.%s: topic %q is not one of %s", name, a.Topic, strings.Join(searchTopics, ", "))
		}
		if a.TimeRange != "" && !slices.Contains(searchTimeRanges, a.TimeRange) {
			return fmt.Errorf("apis.%s: time_range %q is not one of %s", name, a.TimeRange, strings.Join(searchTimeRanges, ", "))
		}
		if a.Depth != "" && !slices.Contains(searchDepths, a.Depth) {
			return fmt.Errorf("apis.%s: depth %q is not one of %s", name, a.Depth, strings.Join(searchDepths, ", "))
		}
		if a.MaxResults < 0 || a.MaxResults > search.MaxResults {
			return fmt.Errorf("apis.%s: max_results must be 1-%d (got %d)", name, search.MaxResults, a.MaxResults)
		}
		if a.ChunksPerSource < 0 || a.ChunksPerSource > 3 {
			return fmt.Errorf("apis.%s: chunks_per_source must be 1-3 (got %d)", name, a.ChunksPerSource)
		}
	}
	if s.Failover != "" && s.Failover != FailoverAuto && s.Failover != FailoverOff {
		return fmt.Errorf("failover %q is not one of %s, %s", s.Failover, FailoverAuto, FailoverOff)
	}
	if s.Default != "" && s.APIs[s.Default] == nil {
		return fmt.Errorf("default %q names no entry under [search.apis]", s.Default)
	}
	for _, f := range s.Fallback {
		if s.APIs[f] == nil {
			return fmt.Errorf("fallback %q names no entry under [search.apis]", f)
		}
	}
	return nil
}

func validateCommandTool(name string, t *CommandTool) error {
	if !isToolName(name) {
		return errors.New("a tool name is 1-64 letters, digits, '_' and '-', starting with a letter or '_'")
	}
	if t == nil || len(t.Command) == 0 || t.Command[0] == "" {
		return errors.New("command is required (an argv list, e.g. [\"./tool.sh\", \"--json\"])")
	}
	if t.Schema != "" {
		var v map[string]any
		if err := json.Unmarshal([]byte(t.Schema), &v); err != nil {
			return fmt.Errorf("schema is not a JSON object: %v", err)
		}
	}
	if t.Timeout != "" {
		r := ToolTimeoutRange
		r.Key = "timeout"
		if _, err := parseDurationIn(r, t.Timeout); err != nil {
			return err
		}
	}
	for k := range t.Env {
		if !isEnvName(k) {
			return fmt.Errorf("env: %q is not a valid environment variable name", k)
		}
	}
	return nil
}

func validateMCP(m *MCPServer) error {
	if m == nil {
		return errors.New("empty server: give command or url")
	}
	switch {
	case len(m.Command) > 0 && m.URL != "":
		return errors.New("give either command (stdio) or url (HTTP), not both")
	case len(m.Command) == 0 && m.URL == "":
		return errors.New("give command (stdio) or url (HTTP)")
	case m.URL != "":
		if err := ValidateBaseURL(m.URL); err != nil {
			return fmt.Errorf("url: %w", err)
		}
		if len(m.Args) > 0 || len(m.Env) > 0 {
			return errors.New("args and env apply to a command server, not a url one")
		}
	}
	return validateHeaders(m.Headers)
}

// The name checks below are written out rather than as regular expressions:
// package-level regexps are compiled at every process start, and `{0,63}`
// makes large programs (SPEC §10 gives `tavo version` 5 ms).

// isProfileName reports whether s is 1-64 letters, digits, '.', '_' or '-',
// starting with a letter or digit.
func isProfileName(s string) bool {
	return matchName(s, 64, isAlnum, func(c byte) bool { return isAlnum(c) || c == '.' || c == '_' || c == '-' })
}

// isEnvName reports whether s is an environment variable name: a letter or
// '_', then letters, digits or '_'.
func isEnvName(s string) bool {
	return matchName(s, 0, isIdentStart, func(c byte) bool { return isIdentStart(c) || isDigit(c) })
}

// isToolName reports whether s is a tool name every provider accepts: 1-64
// letters, digits, '_' or '-', starting with a letter or '_' (Gemini's rule;
// OpenAI's is the same without the first-character rule).
func isToolName(s string) bool {
	return matchName(s, 64, isIdentStart, func(c byte) bool { return isAlnum(c) || c == '_' || c == '-' })
}

// matchName reports whether s is non-empty, at most maxLen bytes (0: no
// limit), starts with a byte first accepts and continues with bytes rest
// accepts.
func matchName(s string, maxLen int, first, rest func(byte) bool) bool {
	if s == "" || (maxLen > 0 && len(s) > maxLen) || !first(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !rest(s[i]) {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool      { return '0' <= c && c <= '9' }
func isLetter(c byte) bool     { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isAlnum(c byte) bool      { return isLetter(c) || isDigit(c) }
func isIdentStart(c byte) bool { return isLetter(c) || c == '_' }
