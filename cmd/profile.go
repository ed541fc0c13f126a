package cmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/config"
)

// NewCmdProfile builds `tavo profile` and its subcommands.
func NewCmdProfile(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "profile",
		Short: "Manage provider profiles",
		Long: `A profile names a protocol, a base URL, a model and where the API key comes
from, plus run defaults (tools, limits, timeouts). Profiles live in the config
file (see --config); keys stay in environment variables named by --key-env.

Which profile a run uses: -p/--profile, else TAVO_PROFILE, else the default
profile (the first one created, or the one chosen with "tavo profile use").`,
	}
	c.AddCommand(
		NewCmdProfileList(f, nil),
		NewCmdProfileShow(f, nil),
		NewCmdProfileSet(f, nil),
		NewCmdProfileRm(f, nil),
		NewCmdProfileUse(f, nil),
		NewCmdProfileDiagnose(f, nil),
	)
	return c
}

// unknownProfileError is the usage error for a profile name the config
// lacks, listing the names it has.
func unknownProfileError(cfg *config.Config, name string) error {
	known := "none yet"
	if names := cfg.ProfileNames(); len(names) > 0 {
		known = "known: " + strings.Join(names, ", ")
	}
	return usageError(fmt.Errorf("unknown profile %q (%s)", name, known))
}

// keyView says where a key comes from, never what it is.
type keyView struct {
	Set bool `json:"set"`
	// Source is "env VAR" or "config" when set.
	Source string `json:"source,omitempty"`
	// Env is the variable the key is read from or should be set in.
	Env     string `json:"env,omitempty"`
	Problem string `json:"problem,omitempty"`
	// NotNeeded is true for a server on this machine without a key.
	NotNeeded bool `json:"not_needed,omitempty"`
}

// profileView is the effective profile as `tavo profile show` prints it.
type profileView struct {
	Name             string            `json:"name"`
	Default          bool              `json:"default"`
	Protocol         string            `json:"protocol"`
	BaseURL          string            `json:"base_url"`
	BaseURLSource    string            `json:"base_url_source"`
	Model            string            `json:"model"`
	APIKey           keyView           `json:"api_key"`
	AuthHeader       string            `json:"auth_header,omitempty"`
	Headers          map[string]string `json:"headers,omitempty"`
	Query            map[string]string `json:"query,omitempty"`
	ContextWindow    int               `json:"context_window,omitempty"`
	MaxOutputTokens  int               `json:"max_output_tokens,omitempty"`
	FetchModel       string            `json:"fetch_model,omitempty"`
	FetchWindow      int               `json:"fetch_context_window,omitempty"`
	Tools            bool              `json:"tools"`
	DynamicTools     bool              `json:"dynamic_tools"`
	MaxRounds        int               `json:"max_rounds"`
	MaxToolCalls     int               `json:"max_tool_calls"`
	ToolTimeout      string            `json:"tool_timeout"`
	Timeout          string            `json:"timeout,omitempty"`
	ResponseTimeout  string            `json:"response_timeout"`
	StreamIdle       string            `json:"stream_idle_timeout"`
	ReasoningContext string            `json:"reasoning_context"`
	System           string            `json:"system,omitempty"`
	Stream           bool              `json:"stream"`
	Params           map[string]any    `json:"params,omitempty"`
	Prices           *config.Prices    `json:"prices,omitempty"`
	Workspace        string            `json:"workspace,omitempty"`
	Vision           bool              `json:"vision,omitempty"`
	VisionModel      string            `json:"vision_model,omitempty"`
	CodeMode         bool              `json:"code_mode"`
	CodeModeDirect   []string          `json:"code_mode_direct"`
	CodeTimeout      string            `json:"code_timeout"`
	Notes            []string          `json:"notes,omitempty"`
}

func newProfileView(cfg *config.Config, r *config.Resolved) profileView {
	p := r.Profile
	v := profileView{
		Name:             r.ProfileName,
		Default:          r.ProfileName != "" && r.ProfileName == cfg.DefaultProfile,
		Protocol:         string(r.Protocol),
		BaseURL:          r.BaseURL,
		BaseURLSource:    r.BaseURLSource,
		Model:            r.Model,
		APIKey:           keyView{Set: r.APIKey != "", Source: r.KeySource, Env: r.KeyEnv, Problem: r.KeyProblem},
		AuthHeader:       r.AuthHeader,
		Headers:          redactHeaders(r.Headers),
		Query:            r.Query,
		ContextWindow:    p.ContextWindow,
		MaxOutputTokens:  p.MaxOutputTokens,
		FetchModel:       p.FetchModel,
		FetchWindow:      p.FetchContextWindow,
		Tools:            *p.Tools,
		DynamicTools:     *p.DynamicTools,
		MaxRounds:        p.MaxRounds,
		MaxToolCalls:     p.MaxToolCalls,
		ToolTimeout:      p.ToolTimeout,
		Timeout:          p.Timeout,
		ResponseTimeout:  p.ResponseTimeout,
		StreamIdle:       p.StreamIdleTimeout,
		ReasoningContext: p.ReasoningContext,
		System:           p.System,
		Stream:           *p.Stream,
		Params:           p.Params,
		Prices:           p.Prices,
		Workspace:        p.Workspace,
		Vision:           p.ShowsImages(),
		VisionModel:      p.QuestionModel(),
		Notes:            r.Notes,
	}
	v.APIKey.NotNeeded = !v.APIKey.Set && r.KeyProblem == ""
	cm := config.RunCodeMode(nil, p)
	v.CodeMode, v.CodeModeDirect, v.CodeTimeout = cm.On, cm.Direct, config.DurationText(cm.Timeout)
	return v
}

// redactHeaders hides the values of headers that usually carry credentials.
func redactHeaders(h map[string]string) map[string]string {
	if len(h) == 0 {
		return nil
	}
	out := make(map[string]string, len(h))
	for k, v := range h {
		lk := strings.ToLower(k)
		for _, s := range []string{"auth", "key", "token", "secret", "cookie", "password"} {
			if strings.Contains(lk, s) {
				v = "(hidden)"
				break
			}
		}
		out[k] = v
	}
	return out
}

// describe renders a key's state in one phrase for people.
func (k keyView) describe() string {
	switch {
	case k.Set && k.Source == "config":
		return "(set, in the config file)"
	case k.Set:
		return fmt.Sprintf("(set, from %s)", k.Source)
	case k.NotNeeded:
		return "(none needed: local server)"
	case k.Env != "":
		return fmt.Sprintf("(missing: set %s)", k.Env)
	default:
		return "(missing: " + k.Problem + ")"
	}
}
