package cmd

import (
	"github.com/spf13/cobra"
)

// ProfileRmOptions are the inputs of `tavo profile rm`.
type ProfileRmOptions struct {
	Factory *Factory
	Name    string
}

// NewCmdProfileRm builds `tavo profile rm`; runF, when not nil, runs
// instead of profileRmRun (for tests).
func NewCmdProfileRm(f *Factory, runF func(*ProfileRmOptions) error) *cobra.Command {
	opts := &ProfileRmOptions{Factory: f}
	return &cobra.Command{
		Use:   "rm NAME",
		Short: "Remove a profile",
		Long: `Remove a profile. If it was the default and exactly one profile remains, that
one becomes the default; otherwise there is no default until you pick one
with "tavo profile use".`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			return runOr(runF, profileRmRun, opts)
		},
		ValidArgsFunction: firstArgOnly(completeProfiles(f)),
		Example: `  tavo profile rm old-work
  tavo profile list -o json --jq '.[].name' | grep '^tmp-' | xargs -n1 tavo profile rm`,
	}
}

func profileRmRun(opts *ProfileRmOptions) error {
	f, name := opts.Factory, opts.Name
	cfg, err := loadConfig(f)
	if err != nil {
		return err
	}
	wasDefault := cfg.DefaultProfile == name
	if !cfg.RemoveProfile(name) {
		return unknownProfileError(cfg, name)
	}
	if err := saveConfig(cfg); err != nil {
		return err
	}
	switch {
	case !wasDefault:
		note(f, "removed profile %q", name)
	case cfg.DefaultProfile != "":
		note(f, "removed profile %q; %q is now the default", name, cfg.DefaultProfile)
	case len(cfg.Profiles) == 0:
		note(f, "removed profile %q; no profiles remain", name)
	default:
		note(f, "removed profile %q; there is no default profile now: pick one with `tavo profile use NAME`", name)
	}
	return nil
}
