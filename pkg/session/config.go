package session

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/store"
)

// Config is how a session is run (SPEC §17): what its first run chose
// beyond the profile, kept so that `tavo session send ID TEXT` needs no
// flags. An empty field means "not chosen": the profile, then tavo's
// default, decides at each run. It never holds a key.
type Config struct {
	// Profile is the profile of the first run, from any source (a flag,
	// TAVO_PROFILE or default_profile), so a later job without the
	// environment still finds it.
	Profile string `json:"profile,omitempty"`
	// Provider, Model and BaseURL are kept when they did not come from the
	// profile (a flag or the environment).
	Provider string `json:"provider,omitempty"`
	Model    string `json:"model,omitempty"`
	BaseURL  string `json:"base_url,omitempty"`
	// System is the system prompt given with --system (a file's text, not
	// its name). A profile's own system key is not copied: the profile
	// stays its home.
	System *string `json:"system,omitempty"`
	// Tools, AllowTools, DynamicTools and ReasoningContext are kept when
	// given as flags (-T, --tool, --dynamic-tools, --reasoning-context).
	Tools            *bool    `json:"tools,omitempty"`
	AllowTools       []string `json:"allow_tools,omitempty"`
	DynamicTools     *bool    `json:"dynamic_tools,omitempty"`
	ReasoningContext string   `json:"reasoning_context,omitempty"`
	// Workspace is named by SPEC §17 for a feature still to come; it is
	// kept and shown when set, and nothing sets it yet. CodeMode is
	// --code-mode when given (docs/code-mode.md).
	Workspace string `json:"workspace,omitempty"`
	CodeMode  *bool  `json:"code_mode,omitempty"`
}

// IsZero reports whether c chooses nothing.
func (c Config) IsZero() bool {
	return c.Profile == "" && c.Provider == "" && c.Model == "" && c.BaseURL == "" && c.System == nil &&
		c.Tools == nil && len(c.AllowTools) == 0 && c.DynamicTools == nil && c.ReasoningContext == "" &&
		c.Workspace == "" && c.CodeMode == nil
}

// LoadConfig reads what a session keeps about how it is run; the zero
// Config when it keeps nothing. An unknown session is ErrNotFound, wrapped.
func LoadConfig(ctx context.Context, st *store.Store, sessionID string) (Config, error) {
	var c Config
	doc, err := st.SessionConfig(ctx, sessionID)
	if err != nil {
		return c, sessionErr(err)
	}
	if len(doc) == 0 {
		return c, nil
	}
	if err := json.Unmarshal(doc, &c); err != nil {
		return c, fmt.Errorf("session %s: its stored config is not readable: %w", sessionID, err)
	}
	return c, nil
}

// saveConfig stores c as the session's config unless it keeps one already.
func saveConfig(ctx context.Context, st *store.Store, sessionID string, c *Config) error {
	if c == nil || c.IsZero() {
		return nil
	}
	doc, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return st.SetSessionConfig(ctx, sessionID, doc, true)
}

// Layer lays a run's flags over the session's stored config: a field the
// flags set wins, for this run only; the session fills the rest. fromSession
// names the fields (by Config's JSON keys) the session supplied.
func Layer(stored, flags Config) (eff Config, fromSession map[string]bool) {
	eff, fromSession = flags, map[string]bool{}
	take := func(key string, empty bool, set func()) {
		if empty {
			set()
			fromSession[key] = true
		}
	}
	// A profile or provider flag starts a new choice of model server: the
	// session's model and base URL belonged to the old one.
	newServer := flags.Profile != "" || flags.Provider != ""
	if stored.Profile != "" {
		take("profile", flags.Profile == "" && flags.Provider == "", func() { eff.Profile = stored.Profile })
	}
	if stored.Provider != "" {
		take("provider", !newServer, func() { eff.Provider = stored.Provider })
	}
	if stored.Model != "" {
		take("model", !newServer && flags.Model == "", func() { eff.Model = stored.Model })
	}
	if stored.BaseURL != "" {
		take("base_url", !newServer && flags.BaseURL == "", func() { eff.BaseURL = stored.BaseURL })
	}
	if stored.System != nil {
		take("system", flags.System == nil, func() { eff.System = stored.System })
	}
	if stored.Tools != nil {
		take("tools", flags.Tools == nil, func() { eff.Tools = stored.Tools })
	}
	if len(stored.AllowTools) > 0 {
		take("allow_tools", len(flags.AllowTools) == 0, func() { eff.AllowTools = slices.Clone(stored.AllowTools) })
	}
	if stored.DynamicTools != nil {
		take("dynamic_tools", flags.DynamicTools == nil, func() { eff.DynamicTools = stored.DynamicTools })
	}
	if fromSession["allow_tools"] && eff.Tools == nil {
		// The allow-list came from --tool, which turned tools on (every
		// allowed one in the first request) without storing Tools: the
		// session's later runs keep them on.
		on, off := true, false
		take("tools", true, func() { eff.Tools = &on })
		take("dynamic_tools", eff.DynamicTools == nil, func() { eff.DynamicTools = &off })
	}
	if stored.ReasoningContext != "" {
		take("reasoning_context", flags.ReasoningContext == "", func() { eff.ReasoningContext = stored.ReasoningContext })
	}
	if stored.Workspace != "" {
		take("workspace", flags.Workspace == "", func() { eff.Workspace = stored.Workspace })
	}
	if stored.CodeMode != nil {
		take("code_mode", flags.CodeMode == nil, func() { eff.CodeMode = stored.CodeMode })
	}
	return eff, fromSession
}

// Overrides are the provider choices of eff for config.Resolve.
func (c Config) Overrides() config.Overrides {
	return config.Overrides{Profile: c.Profile, Provider: c.Provider, Model: c.Model, BaseURL: c.BaseURL}
}

// RunFlags lays c's run settings onto flags (the other run flags of the
// command line) for config.ResolveRun.
func (c Config) RunFlags(flags config.RunFlags) config.RunFlags {
	flags.Tools, flags.DynamicTools, flags.System = c.Tools, c.DynamicTools, c.System
	if c.ReasoningContext != "" {
		rc := c.ReasoningContext
		flags.ReasoningContext = &rc
	}
	return flags
}

// Remembered is what a new session keeps of its first run: the profile
// used, the provider, model and base URL unless the profile gave them, and
// the run settings given as flags.
func Remembered(flags Config, res *config.Resolved) Config {
	c := Config{Profile: res.ProfileName, System: flags.System, Tools: flags.Tools, AllowTools: flags.AllowTools,
		DynamicTools: flags.DynamicTools, ReasoningContext: flags.ReasoningContext, Workspace: flags.Workspace, CodeMode: flags.CodeMode}
	outside := func(key string) bool {
		src := res.Sources[key]
		return src == "flag" || strings.HasPrefix(src, "env")
	}
	if outside("provider") {
		c.Provider = string(res.Protocol)
	}
	if outside("base_url") {
		c.BaseURL = res.BaseURL
	}
	// A kept base URL comes back as an override, under which the protocol's
	// default model no longer applies: keep the model the run used with it.
	if outside("model") || c.BaseURL != "" {
		c.Model = res.Model
	}
	return c
}

// Sources merges where each effective setting came from: the resolved
// provider choice and run settings (flag, profile, env, default), with
// "session" for what the session supplied. allowTools is keyed too: "flag",
// "session", or "default" (every tool).
func Sources(res *config.Resolved, set *config.RunSettings, fromSession map[string]bool, allowFlag bool) map[string]string {
	out := map[string]string{}
	maps.Copy(out, res.Sources)
	for _, k := range []string{"tools", "dynamic_tools", "reasoning_context", "system"} {
		out[k] = set.Sources[k]
	}
	switch {
	case allowFlag:
		out["allow_tools"] = "flag"
	default:
		out["allow_tools"] = "default"
	}
	for k := range fromSession {
		out[k] = "session"
	}
	if out["profile"] == "" {
		delete(out, "profile")
	}
	if out["model"] == "" {
		delete(out, "model")
	}
	return out
}
