package config

import (
	"encoding/json"
	"fmt"
	"github.com/tavo-cli/tavo/pkg/httpx"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// The run defaults of SPEC §1. Each lives here only: Profile.Defaults,
// ResolveRun and the flag help texts all read these.
const (
	// DefaultProtocol is the protocol of a profile that names none.
	DefaultProtocol = "openai"
	// DefaultTools leaves tool use off unless asked for.
	DefaultTools = false
	// DefaultDynamicTools sends resident tools and tool search first.
	DefaultDynamicTools = true
	// DefaultStream asks for streamed responses.
	DefaultStream = true
	// DefaultMaxRounds is the most model requests in one run.
	DefaultMaxRounds = 5
	// DefaultMaxToolCalls is the most tool calls in one run.
	DefaultMaxToolCalls = 32
	// DefaultToolTimeout bounds one tool call.
	DefaultToolTimeout = 60 * time.Second
	// DefaultTimeout bounds a whole run; 0 is no limit.
	DefaultTimeout time.Duration = 0
	// DefaultReasoningContext sends no earlier reasoning back.
	DefaultReasoningContext = "off"
	// DefaultMaxOutputTokens leaves the answer's length to the provider.
	DefaultMaxOutputTokens = 0
	// DefaultAnswerReserve is the room kept for the answer in a request's
	// token budget when no output limit is set.
	DefaultAnswerReserve = 4096
)

// The model-request timeouts of a profile default to the HTTP layer's
// bounds for model servers (docs/http.md says why those numbers).
var (
	// DefaultResponseTimeout bounds the wait for a model server's headers.
	DefaultResponseTimeout = httpx.ProviderTimeouts.ResponseHeader
	// DefaultStreamIdleTimeout bounds the silence inside a model's answer.
	DefaultStreamIdleTimeout = httpx.ProviderTimeouts.IdleBody
)

// RunFlags are the run settings given on the command line (or by any other
// caller that overrides a profile). A nil field was not given: the profile's
// value applies, else the default.
type RunFlags struct {
	Tools, DynamicTools, Stream *bool
	MaxRounds, MaxToolCalls     *int
	// MaxOutputTokens 0 asks for the provider's default even when the
	// profile sets a limit.
	MaxOutputTokens *int
	ToolTimeout     *time.Duration
	// Timeout 0 means no limit even when the profile sets one.
	Timeout          *time.Duration
	ReasoningContext *string
	// ResponseTimeout and StreamIdleTimeout override the profile's
	// response_timeout and stream_idle_timeout for one run.
	ResponseTimeout, StreamIdleTimeout *time.Duration
	// System is the system prompt; "" given means none even when the
	// profile has one.
	System *string
	// Params are key=value pairs laid over the profile's params; a value is
	// JSON when it parses as JSON, else a string.
	Params []string
}

// RunSettings are every setting of one run, decided: a flag beats the
// profile, the profile beats the default.
type RunSettings struct {
	// ProfileName, Protocol and Model come from Resolve.
	ProfileName string
	Protocol    providers.Protocol
	Model       string

	Tools, DynamicTools, Stream bool
	MaxRounds                   int
	MaxToolCalls                int
	// MaxOutputTokens caps each answer; 0 leaves it to the provider.
	MaxOutputTokens int
	ToolTimeout     time.Duration
	// Timeout bounds the whole run; 0 (or less) is no limit.
	Timeout time.Duration
	// ReasoningContext is one of ReasoningContexts.
	ReasoningContext string
	// Params are extra request-body fields; nil when there are none.
	Params map[string]any
	// ContextWindow is the model's context size in tokens, 0 when unknown.
	ContextWindow int
	// ContextBudget is the token budget of a request (ContextBudget of the
	// window and the output limit); 0 when the window is unknown.
	ContextBudget int
	// Prices are the model's prices, nil when the profile gives none.
	Prices *Prices
	// System is the system prompt, "" for none.
	System string
	// Sources say where each setting came from, by its profile key
	// (tools, dynamic_tools, reasoning_context, system, max_rounds, …):
	// "flag", "profile" or "default". A caller that passes other origins
	// through RunFlags (a session's stored settings) relabels them.
	Sources map[string]string
	// HTTPTimeouts bound the phases of each model request: the response
	// headers (response_timeout) and the silence inside a streamed answer
	// (stream_idle_timeout); the other phases take the HTTP layer's bounds.
	HTTPTimeouts httpx.Timeouts
}

// ResolveRun decides every run setting of r's profile under flags. Errors
// are one line naming the flag or profile key at fault.
func ResolveRun(r *Resolved, flags RunFlags) (*RunSettings, error) {
	p := r.Profile
	s := &RunSettings{
		ProfileName:      r.ProfileName,
		Protocol:         r.Protocol,
		Model:            r.Model,
		Tools:            pickBool(flags.Tools, p.Tools, DefaultTools),
		DynamicTools:     pickBool(flags.DynamicTools, p.DynamicTools, DefaultDynamicTools),
		Stream:           pickBool(flags.Stream, p.Stream, DefaultStream),
		ReasoningContext: pickString(flags.ReasoningContext, p.ReasoningContext, DefaultReasoningContext),
		ContextWindow:    p.ContextWindow,
	}
	var err error
	if s.MaxRounds, err = pickIntIn(MaxRoundsRange, flags.MaxRounds, p.MaxRounds, DefaultMaxRounds); err != nil {
		return nil, err
	}
	if s.MaxToolCalls, err = pickIntIn(MaxToolCallsRange, flags.MaxToolCalls, p.MaxToolCalls, DefaultMaxToolCalls); err != nil {
		return nil, err
	}
	if s.MaxOutputTokens, err = pickIntIn(MaxOutputTokensRange, flags.MaxOutputTokens, p.MaxOutputTokens, DefaultMaxOutputTokens); err != nil {
		return nil, err
	}
	if s.ToolTimeout, err = pickDuration(ToolTimeoutRange, flags.ToolTimeout, p.ToolTimeout, DefaultToolTimeout); err != nil {
		return nil, err
	}
	if s.Timeout, err = pickDuration(TimeoutRange, flags.Timeout, p.Timeout, DefaultTimeout); err != nil {
		return nil, err
	}
	if s.HTTPTimeouts.ResponseHeader, err = pickDuration(ResponseTimeoutRange, flags.ResponseTimeout, p.ResponseTimeout, DefaultResponseTimeout); err != nil {
		return nil, err
	}
	if s.HTTPTimeouts.IdleBody, err = pickDuration(StreamIdleTimeoutRange, flags.StreamIdleTimeout, p.StreamIdleTimeout, DefaultStreamIdleTimeout); err != nil {
		return nil, err
	}
	if !slices.Contains(ReasoningContexts, s.ReasoningContext) {
		last := len(ReasoningContexts) - 1
		return nil, fmt.Errorf("invalid reasoning context %q: want %s or %s", s.ReasoningContext, strings.Join(ReasoningContexts[:last], ", "), ReasoningContexts[last])
	}
	if s.Params, err = mergeParams(p.Params, flags.Params); err != nil {
		return nil, err
	}
	if err := checkOwnedParams(r.Protocol, "profile params.", p.Params, flags.Params); err != nil {
		return nil, err
	}
	s.System = pickString(flags.System, p.System, "")
	// The sources look at the profile as written, before Defaults filled it.
	raw := r.raw
	if !r.rawSet {
		raw = r.Profile
	}
	s.Sources = map[string]string{
		"tools":               source(flags.Tools != nil, raw.Tools != nil),
		"dynamic_tools":       source(flags.DynamicTools != nil, raw.DynamicTools != nil),
		"stream":              source(flags.Stream != nil, raw.Stream != nil),
		"max_rounds":          source(flags.MaxRounds != nil, raw.MaxRounds != 0),
		"max_tool_calls":      source(flags.MaxToolCalls != nil, raw.MaxToolCalls != 0),
		"max_output_tokens":   source(flags.MaxOutputTokens != nil, raw.MaxOutputTokens != 0),
		"tool_timeout":        source(flags.ToolTimeout != nil, raw.ToolTimeout != ""),
		"timeout":             source(flags.Timeout != nil, raw.Timeout != ""),
		"reasoning_context":   source(flags.ReasoningContext != nil, raw.ReasoningContext != ""),
		"system":              source(flags.System != nil, raw.System != ""),
		"params":              source(len(flags.Params) > 0, len(raw.Params) > 0),
		"context_window":      source(false, raw.ContextWindow != 0),
		"response_timeout":    source(flags.ResponseTimeout != nil, raw.ResponseTimeout != ""),
		"stream_idle_timeout": source(flags.StreamIdleTimeout != nil, raw.StreamIdleTimeout != ""),
	}
	s.ContextBudget = ContextBudget(s.ContextWindow, s.MaxOutputTokens)
	if p.Prices != nil {
		pr := *p.Prices
		s.Prices = &pr
	}
	return s, nil
}

// source names where a setting came from: the flag when given, else the
// profile when it sets one, else tavo's default.
func source(flag, profile bool) string {
	switch {
	case flag:
		return "flag"
	case profile:
		return "profile"
	}
	return "default"
}

// ContextBudget is the token budget of a request: the context window less
// the room kept for the answer (maxOut, else DefaultAnswerReserve); 0 when
// the window is unknown.
func ContextBudget(window, maxOut int) int {
	if window <= 0 {
		return 0
	}
	if maxOut <= 0 {
		maxOut = DefaultAnswerReserve
	}
	if b := window - maxOut; b > 0 {
		return b
	}
	return window / 2
}

// pickBool and pickString choose the flag when given, else the profile's
// value when set (zero means unset), else the default.
func pickBool(flag, profile *bool, def bool) bool {
	switch {
	case flag != nil:
		return *flag
	case profile != nil:
		return *profile
	}
	return def
}

// pickIntIn is pickInt checked against r: a flag out of range is an error
// naming the flag, a profile value one naming the key.
func pickIntIn(r Range[int], flag *int, profile, def int) (int, error) {
	switch {
	case flag != nil:
		return *flag, r.Check(*flag)
	case profile != 0:
		if err := r.CheckKey(profile); err != nil {
			return 0, fmt.Errorf("profile %w", err)
		}
		return profile, nil
	}
	return def, nil
}

func pickString(flag *string, profile, def string) string {
	switch {
	case flag != nil:
		return *flag
	case profile != "":
		return profile
	}
	return def
}

// pickDuration is the flag when given, else the profile's key parsed, else
// the default; the flag or key is checked against r.
func pickDuration(r Range[time.Duration], flag *time.Duration, profile string, def time.Duration) (time.Duration, error) {
	switch {
	case flag != nil:
		return *flag, r.Check(*flag)
	case profile == "":
		return def, nil
	}
	d, err := parseDurationIn(r, profile)
	if err != nil {
		return 0, fmt.Errorf("profile %w", err)
	}
	return d, nil
}

// mergeParams lays --param key=value pairs over the profile's params; a
// value is JSON when it parses as JSON, else a string. Nil when both are
// empty.
func mergeParams(profile map[string]any, flags []string) (map[string]any, error) {
	if len(profile) == 0 && len(flags) == 0 {
		return nil, nil
	}
	out := maps.Clone(profile)
	if out == nil {
		out = map[string]any{}
	}
	for _, kv := range flags {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("invalid --param %q: want key=value", kv)
		}
		var parsed any
		if err := json.Unmarshal([]byte(v), &parsed); err == nil {
			out[k] = parsed
		} else {
			out[k] = v
		}
	}
	return out, nil
}

// checkOwnedParams refuses a profile param or --param that names a body
// field the protocol's codec sets from a setting of its own (the protocol
// table's OwnedKeys): overriding it would make the run record one model or
// conversation and send another.
//
// where names the profile's params in the message ("profile params.").
func checkOwnedParams(proto providers.Protocol, where string, profile map[string]any, flags []string) error {
	info, ok := providers.Lookup(proto)
	if !ok {
		return nil
	}
	for _, k := range sortedKeys(profile) {
		if by, owned := info.OwnedKeys[k]; owned {
			return fmt.Errorf("%s%s: tavo sets %q itself from %s; use that instead", where, k, k, by)
		}
	}
	for _, kv := range flags {
		k, _, _ := strings.Cut(kv, "=")
		if by, owned := info.OwnedKeys[k]; owned {
			return fmt.Errorf("--param %s: tavo sets %q itself from %s; use that instead", k, k, by)
		}
	}
	return nil
}

// DurationText writes a duration as a profile holds it and help shows it
// ("60s", not Go's "1m0s").
func DurationText(d time.Duration) string {
	switch {
	case d%time.Hour == 0 && d >= time.Hour:
		return fmt.Sprintf("%dh", d/time.Hour)
	case d%time.Minute == 0 && d >= 10*time.Minute:
		return fmt.Sprintf("%dm", d/time.Minute)
	case d%time.Second == 0:
		return fmt.Sprintf("%ds", d/time.Second)
	}
	return d.String()
}
