// Package config reads and writes tavo's configuration file (TOML): provider
// profiles, search APIs, command tools and MCP servers. It also turns a
// profile, command-line overrides and the environment into the one provider
// configuration a run uses (Resolve).
//
// The file is decoded strictly: a key tavo does not know is an error naming
// the key, so a typo never silently does nothing.
package config

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/tavo-cli/tavo/pkg/httpx"
)

// Config is the whole configuration file.
type Config struct {
	// DefaultProfile names the profile used when neither -p/--profile nor
	// TAVO_PROFILE names one.
	DefaultProfile string `toml:"default_profile,omitempty"`
	// Profiles are the named provider profiles.
	Profiles map[string]*Profile `toml:"profiles,omitempty"`
	// Search holds the web search APIs (SPEC §7).
	Search SearchConfig `toml:"search,omitempty"`
	// Tools are command tools, by tool name (SPEC §9).
	Tools map[string]*CommandTool `toml:"tools,omitempty"`
	// MCP are MCP servers, by server name (SPEC §9).
	MCP map[string]*MCPServer `toml:"mcp,omitempty"`
	// Retention says how long runs, journals and audit rows are kept.
	Retention Retention `toml:"retention,omitempty"`
	// Fetch holds web fetch settings shared by every profile (SPEC §16).
	Fetch Fetch `toml:"fetch,omitempty"`
	// Store says where the store is (SPEC §15): [store] url.
	Store Store `toml:"store,omitempty"`
	// Subagents bounds trees of sub-agents (SPEC §13).
	Subagents Subagents `toml:"subagents,omitempty"`

	path string
}

// Profile is one named provider profile: where a model is and how to run it.
// Zero values mean "not set": the run's default applies (see Defaults).
type Profile struct {
	// Protocol is openai, openai-responses, anthropic or gemini (default DefaultProtocol).
	Protocol string `toml:"protocol,omitempty"`
	// BaseURL is the API root; empty means the protocol's environment
	// variable or its official URL.
	BaseURL string `toml:"base_url,omitempty"`
	// Model is the model name sent to the API.
	Model string `toml:"model,omitempty"`
	// APIKeyEnv names the environment variable holding the key.
	APIKeyEnv string `toml:"api_key_env,omitempty"`
	// APIKey is the key itself. Allowed but discouraged (prefer APIKeyEnv);
	// it is never printed and never encoded to JSON.
	APIKey string `toml:"api_key,omitempty" json:"-"`
	// AuthHeader replaces the protocol's auth header; the key is then sent
	// as is, without "Bearer " (Azure: "api-key").
	AuthHeader string `toml:"auth_header,omitempty"`
	// Headers are extra request headers.
	Headers map[string]string `toml:"headers,omitempty,inline"`
	// Query are extra URL query parameters (Azure: api-version).
	Query map[string]string `toml:"query,omitempty,inline"`
	// ContextWindow is the model's context size in tokens (for compaction).
	ContextWindow int `toml:"context_window,omitempty"`
	// MaxOutputTokens caps each answer.
	MaxOutputTokens int `toml:"max_output_tokens,omitempty"`
	// FetchModel is the model, on this profile's API, that answers
	// tavo_web_fetch's prompt from a long page (SPEC §16); empty returns
	// the page instead, with a warning.
	FetchModel string `toml:"fetch_model,omitempty"`
	// FetchContextWindow is FetchModel's context size in tokens; a page
	// that does not fit is read part by part (0: 32,000 assumed).
	FetchContextWindow int `toml:"fetch_context_window,omitempty"`
	// Tools turns tool use on for runs with this profile (default DefaultTools).
	Tools *bool `toml:"tools,omitempty"`
	// DynamicTools loads tools on demand through tool search (default DefaultDynamicTools).
	DynamicTools *bool `toml:"dynamic_tools,omitempty"`
	// MaxRounds limits model rounds per run (default DefaultMaxRounds).
	MaxRounds int `toml:"max_rounds,omitempty"`
	// MaxToolCalls limits tool calls per run (default DefaultMaxToolCalls).
	MaxToolCalls int `toml:"max_tool_calls,omitempty"`
	// ToolTimeout limits one tool call, as a Go duration (default DefaultToolTimeout).
	ToolTimeout string `toml:"tool_timeout,omitempty"`
	// Timeout limits the whole run, as a Go duration (default none).
	Timeout string `toml:"timeout,omitempty"`
	// ResponseTimeout limits the wait for a model server's response headers
	// on each request, as a Go duration (default DefaultResponseTimeout).
	ResponseTimeout string `toml:"response_timeout,omitempty"`
	// StreamIdleTimeout limits the silence between two pieces of a model's
	// answer, as a Go duration (default DefaultStreamIdleTimeout).
	StreamIdleTimeout string `toml:"stream_idle_timeout,omitempty"`
	// System is the system prompt of runs with this profile, unless
	// --system or the session gives one.
	System string `toml:"system,omitempty,multiline"`
	// Workspace is the directory workspace:// reads (see workspace.go).
	Workspace string `toml:"workspace,omitempty"`
	// Vision says the model is shown images (see vision.go).
	Vision *bool `toml:"vision,omitempty"`
	// VisionModel answers ?question= about images (see vision.go).
	VisionModel string `toml:"vision_model,omitempty"`
	// CodeMode, CodeModeDirect and CodeTimeout are code mode's keys (see
	// codemode.go).
	CodeMode       *bool    `toml:"code_mode,omitempty"`
	CodeModeDirect []string `toml:"code_mode_direct,omitempty"`
	CodeTimeout    string   `toml:"code_timeout,omitempty"`
	// JudgeModel is the model, on this profile's API, that judges whether a
	// goal's condition is met after each turn (SPEC §14); empty uses the
	// profile's model.
	JudgeModel string `toml:"judge_model,omitempty"`
	// ReasoningContext is off, since-user or active-chain (default DefaultReasoningContext).
	ReasoningContext string `toml:"reasoning_context,omitempty"`
	// Stream asks for streamed responses (default DefaultStream).
	Stream *bool `toml:"stream,omitempty"`
	// Params are extra request-body fields sent with every request.
	Params map[string]any `toml:"params,omitempty,inline"`
	// Prices give per-million-token prices so usage can carry cost_usd.
	Prices *Prices `toml:"prices,omitempty,inline"`
}

// Prices are a model's prices in US dollars per million tokens.
type Prices struct {
	InputPerMTok       float64 `toml:"input_per_mtok,omitempty" json:"input_per_mtok"`
	OutputPerMTok      float64 `toml:"output_per_mtok,omitempty" json:"output_per_mtok"`
	CachedInputPerMTok float64 `toml:"cached_input_per_mtok,omitempty" json:"cached_input_per_mtok,omitempty"`
}

// Defaults returns a copy of p with every run option that p leaves unset
// filled with tavo's default (the Default* constants). Maps are copied
// too, so the result may be changed freely.
func (p Profile) Defaults() Profile {
	if p.Protocol == "" {
		p.Protocol = DefaultProtocol
	}
	if p.Tools == nil {
		p.Tools = boolPtr(DefaultTools)
	}
	if p.DynamicTools == nil {
		p.DynamicTools = boolPtr(DefaultDynamicTools)
	}
	if p.Stream == nil {
		p.Stream = boolPtr(DefaultStream)
	}
	if p.MaxRounds == 0 {
		p.MaxRounds = DefaultMaxRounds
	}
	if p.MaxToolCalls == 0 {
		p.MaxToolCalls = DefaultMaxToolCalls
	}
	if p.ToolTimeout == "" {
		p.ToolTimeout = DurationText(DefaultToolTimeout)
	}
	if p.ReasoningContext == "" {
		p.ReasoningContext = DefaultReasoningContext
	}
	if p.ResponseTimeout == "" {
		p.ResponseTimeout = DurationText(DefaultResponseTimeout)
	}
	if p.StreamIdleTimeout == "" {
		p.StreamIdleTimeout = DurationText(DefaultStreamIdleTimeout)
	}
	return p.clone()
}

// clone copies p deeply enough that changing the copy's maps or pointers
// leaves p alone.
func (p Profile) clone() Profile {
	p.Headers = maps.Clone(p.Headers)
	p.Query = maps.Clone(p.Query)
	p.Params = maps.Clone(p.Params)
	if p.Tools != nil {
		p.Tools = boolPtr(*p.Tools)
	}
	if p.DynamicTools != nil {
		p.DynamicTools = boolPtr(*p.DynamicTools)
	}
	if p.Stream != nil {
		p.Stream = boolPtr(*p.Stream)
	}
	if p.Prices != nil {
		pr := *p.Prices
		p.Prices = &pr
	}
	return p
}

// ToolTimeoutDuration returns ToolTimeout parsed (0 when unset).
func (p *Profile) ToolTimeoutDuration() time.Duration { return mustDuration(p.ToolTimeout) }

// HTTPTimeouts returns the profile's bounds on a model request's phases;
// zero fields mean the defaults of httpx.ProviderTimeouts.
func (p *Profile) HTTPTimeouts() httpx.Timeouts {
	return httpx.Timeouts{ResponseHeader: mustDuration(p.ResponseTimeout), IdleBody: mustDuration(p.StreamIdleTimeout)}
}

// TimeoutDuration returns Timeout parsed (0 when unset: no limit).
func (p *Profile) TimeoutDuration() time.Duration { return mustDuration(p.Timeout) }

// mustDuration parses a duration that validation has already checked.
func mustDuration(s string) time.Duration {
	if s == "" {
		return 0
	}
	d, _ := time.ParseDuration(s)
	return d
}

// String describes p without its key, so that printing a profile by
// accident never shows one.
func (p Profile) String() string {
	key := "none"
	switch {
	case p.APIKeyEnv != "":
		key = "env " + p.APIKeyEnv
	case p.APIKey != "":
		key = "config (hidden)"
	}
	return fmt.Sprintf("{protocol:%s base_url:%s model:%s key:%s}", p.Protocol, p.BaseURL, p.Model, key)
}

// GoString is String, so %#v cannot show the key either.
func (p Profile) GoString() string { return p.String() }

// SearchConfig holds the web search APIs. Only its shape is checked here;
// the search feature gives it meaning.
type SearchConfig struct {
	// Default names the API that runs.
	Default string `toml:"default,omitempty"`
	// Fallback names APIs tried, in order, when the default fails.
	Fallback []string `toml:"fallback,omitempty"`
	// Failover is "auto" (after Fallback, every other complete API is tried,
	// by name) or "off"/empty (only Fallback). See search.go.
	Failover string `toml:"failover,omitempty"`
	// APIs are the configured search APIs by name.
	APIs map[string]*SearchAPI `toml:"apis,omitempty"`
}

// SearchAPI is one configured search API.
type SearchAPI struct {
	// Engine is tavily, searxng, brave, duckduckgo or bing.
	Engine          string `toml:"engine"`
	APIKey          string `toml:"api_key,omitempty" json:"-"`
	APIKeyEnv       string `toml:"api_key_env,omitempty"`
	BaseURL         string `toml:"base_url,omitempty"`
	Depth           string `toml:"depth,omitempty"`
	MaxResults      int    `toml:"max_results,omitempty"`
	Topic           string `toml:"topic,omitempty"`
	TimeRange       string `toml:"time_range,omitempty"`
	ChunksPerSource int    `toml:"chunks_per_source,omitempty"`
	// Language is SearXNG's language parameter.
	Language string `toml:"language,omitempty"`
	// Timeout bounds each request, e.g. "10s" (default 20s).
	Timeout string `toml:"timeout,omitempty"`
}

// CommandTool is a tool backed by a local command (SPEC §9).
type CommandTool struct {
	Description string `toml:"description,omitempty"`
	// Command is the argv to run; the arguments arrive on stdin as JSON.
	Command []string `toml:"command"`
	// Schema is the JSON Schema of the arguments, as JSON text.
	Schema string `toml:"schema,omitempty,multiline"`
	// Timeout limits one call, as a Go duration.
	Timeout string `toml:"timeout,omitempty"`
	// Confirm asks a person before each call.
	Confirm     bool              `toml:"confirm,omitempty"`
	DisplayName string            `toml:"display_name,omitempty"`
	Env         map[string]string `toml:"env,omitempty,inline"`
}

// MCPServer is an MCP server reached over stdio (Command) or streamable
// HTTP (URL).
type MCPServer struct {
	Command []string          `toml:"command,omitempty"`
	Args    []string          `toml:"args,omitempty"`
	Env     map[string]string `toml:"env,omitempty,inline"`
	URL     string            `toml:"url,omitempty"`
	Headers map[string]string `toml:"headers,omitempty,inline"`
}

func boolPtr(b bool) *bool { return &b }

// sortedKeys returns m's keys in order, so that validation and listings are
// deterministic.
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
