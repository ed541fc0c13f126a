package cmd

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/tools/webfetch"
)

// ProfileShowOptions are the inputs of `tavo profile show`.
type ProfileShowOptions struct {
	Factory *Factory
	// Name is the profile to show; empty for the one a run would use.
	Name string
}

// NewCmdProfileShow builds `tavo profile show`; runF, when not nil, runs
// instead of profileShowRun (for tests).
func NewCmdProfileShow(f *Factory, runF func(*ProfileShowOptions) error) *cobra.Command {
	opts := &ProfileShowOptions{Factory: f}
	return &cobra.Command{
		Use:   "show [NAME]",
		Short: "Show a profile's effective settings",
		Long: `Show a profile's effective settings: its own fields, what the environment
fills in, and tavo's defaults for the rest. Without NAME, the profile a run
would use (TAVO_PROFILE, else the default; with no profile at all, what the
environment alone configures). The API key is never shown, only where it
comes from.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = argOr(args, "")
			return runOr(runF, profileShowRun, opts)
		},
		ValidArgsFunction: firstArgOnly(completeProfiles(f)),
		Example: `  tavo profile show
  tavo profile show work -o json --jq .model`,
	}
}

func profileShowRun(opts *ProfileShowOptions) error {
	f, name := opts.Factory, opts.Name
	out, cfg, err := configOutput(f)
	if err != nil {
		return err
	}
	if name != "" && !cfg.HasProfile(name) {
		return unknownProfileError(cfg, name)
	}
	r, err := cfg.Inspect(config.Overrides{Profile: name}, f.Getenv)
	if err != nil {
		return usageError(err)
	}
	v := newProfileView(cfg, r)
	if out.Structured() {
		return out.WriteValue(v)
	}
	return writeProfileText(f.IO, v)
}

// writeProfileText prints v as aligned "key: value" lines on a terminal,
// tab-separated pairs in a pipe.
func writeProfileText(ios *cli.IOStreams, v profileView) error {
	type kv struct{ k, v string }
	var lines []kv
	add := func(k, v string) { lines = append(lines, kv{k, v}) }
	addInt := func(k string, n int) {
		if n != 0 {
			add(k, strconv.Itoa(n))
		}
	}
	name := v.Name
	if name == "" {
		name = "(none: from flags and environment)"
	} else if v.Default {
		name += " (default)"
	}
	add("name", name)
	add("protocol", v.Protocol)
	base := v.BaseURL
	if v.BaseURLSource != "profile" {
		base += " (" + v.BaseURLSource + ")"
	}
	add("base_url", base)
	model := v.Model
	if model == "" {
		model = "(none: pass -m/--model or set one with --model)"
	}
	add("model", model)
	add("api_key", v.APIKey.describe())
	if v.AuthHeader != "" {
		add("auth_header", v.AuthHeader)
	}
	if len(v.Headers) > 0 {
		add("headers", joinPairs(v.Headers))
	}
	if len(v.Query) > 0 {
		add("query", joinPairs(v.Query))
	}
	addInt("context_window", v.ContextWindow)
	addInt("max_output_tokens", v.MaxOutputTokens)
	if v.FetchModel == "" {
		add("fetch_model", "none (a prompt over a long page gets the page)")
	} else {
		add("fetch_model", v.FetchModel)
		window := strconv.Itoa(v.FetchWindow)
		if v.FetchWindow == 0 {
			window = strconv.Itoa(webfetch.DefaultContextWindow) + " (assumed)"
		}
		add("fetch_context_window", window)
	}
	add("tools", strconv.FormatBool(v.Tools))
	add("dynamic_tools", strconv.FormatBool(v.DynamicTools))
	add("max_rounds", strconv.Itoa(v.MaxRounds))
	add("max_tool_calls", strconv.Itoa(v.MaxToolCalls))
	add("tool_timeout", v.ToolTimeout)
	if v.Timeout != "" {
		add("timeout", v.Timeout)
	} else {
		add("timeout", "none")
	}
	add("response_timeout", v.ResponseTimeout)
	add("stream_idle_timeout", v.StreamIdle)
	add("reasoning_context", v.ReasoningContext)
	if v.System != "" {
		add("system", oneLine(v.System))
	}
	add("stream", strconv.FormatBool(v.Stream))
	add("code_mode", strconv.FormatBool(v.CodeMode))
	add("code_mode_direct", strings.Join(v.CodeModeDirect, ","))
	add("code_timeout", v.CodeTimeout)
	if len(v.Params) > 0 {
		b, _ := json.Marshal(v.Params)
		add("params", string(b))
	}
	if p := v.Prices; p != nil {
		add("prices", fmt.Sprintf("input %g, output %g, cached input %g USD per million tokens", p.InputPerMTok, p.OutputPerMTok, p.CachedInputPerMTok))
	}
	if v.Workspace != "" {
		add("workspace", v.Workspace)
	}
	if v.Vision {
		add("vision", "true")
	}
	if v.VisionModel != "" {
		add("vision_model", v.VisionModel)
	}
	for _, n := range v.Notes {
		add("note", n)
	}

	if !ios.IsStdoutTTY() {
		for _, l := range lines {
			fmt.Fprintf(ios.Out, "%s\t%s\n", l.k, l.v)
		}
		return nil
	}
	tw := tabwriter.NewWriter(ios.Out, 0, 8, 1, ' ', 0)
	for _, l := range lines {
		fmt.Fprintf(tw, "%s:\t%s\n", l.k, l.v)
	}
	return tw.Flush()
}

// joinPairs renders a map as "k=v, k=v", sorted by key.
func joinPairs(m map[string]string) string {
	parts := make([]string, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, k+"="+m[k])
	}
	return strings.Join(parts, ", ")
}
