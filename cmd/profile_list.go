package cmd

import (
	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/config"
)

// profileRow is one line of `tavo profile list -o json`.
type profileRow struct {
	Name     string `json:"name"`
	Default  bool   `json:"default"`
	Protocol string `json:"protocol"`
	Model    string `json:"model"`
	BaseURL  string `json:"base_url"`
}

// ProfileListOptions are the inputs of `tavo profile list`.
type ProfileListOptions struct {
	Factory *Factory
}

// NewCmdProfileList builds `tavo profile list`; runF, when not nil, runs
// instead of profileListRun (for tests).
func NewCmdProfileList(f *Factory, runF func(*ProfileListOptions) error) *cobra.Command {
	opts := &ProfileListOptions{Factory: f}
	return &cobra.Command{
		Use:   "list",
		Short: "List profiles",
		Long: `List profiles with their effective protocol, model and base URL; * marks the
default. On a terminal this is a table; in a pipe, tab-separated lines
(NAME, PROTOCOL, MODEL, BASE URL, DEFAULT) without a header.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runOr(runF, profileListRun, opts) },
		Example: `  tavo profile list
  tavo profile list -o json --jq '.[].name'`,
	}
}

func profileListRun(opts *ProfileListOptions) error {
	f := opts.Factory
	out, cfg, err := configOutput(f)
	if err != nil {
		return err
	}
	var rows []profileRow
	for _, name := range cfg.ProfileNames() {
		p := cfg.Profiles[name]
		row := profileRow{Name: name, Default: name == cfg.DefaultProfile, Protocol: p.Protocol, Model: p.Model, BaseURL: p.BaseURL}
		// Show what a run would use, environment included; fall back to
		// the file's values if the environment holds something invalid.
		if r, err := cfg.Inspect(config.Overrides{Profile: name}, f.Getenv); err == nil {
			row.Protocol, row.Model, row.BaseURL = string(r.Protocol), r.Model, r.BaseURL
		}
		rows = append(rows, row)
	}
	if out.Structured() {
		return cli.WriteList(out, rows)
	}
	if len(rows) == 0 {
		if f.IO.IsStdoutTTY() {
			note(f, "no profiles yet: add one with `tavo profile set NAME --protocol openai --model MODEL --key-env OPENAI_API_KEY`")
		}
		return nil
	}
	t := cli.NewTable(f.IO, "NAME", "PROTOCOL", "MODEL", "BASE URL", "DEFAULT")
	for _, r := range rows {
		mark := ""
		if r.Default {
			mark = "*"
		}
		t.AddRow(r.Name, r.Protocol, r.Model, r.BaseURL, mark)
	}
	return t.Render()
}
