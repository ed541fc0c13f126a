package cmd

import (
	"github.com/spf13/cobra"
)

// ProfileUseOptions are the inputs of `tavo profile use`.
type ProfileUseOptions struct {
	Factory *Factory
	Name    string
}

// NewCmdProfileUse builds `tavo profile use`; runF, when not nil, runs
// instead of profileUseRun (for tests).
func NewCmdProfileUse(f *Factory, runF func(*ProfileUseOptions) error) *cobra.Command {
	opts := &ProfileUseOptions{Factory: f}
	return &cobra.Command{
		Use:   "use NAME",
		Short: "Make a profile the default",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			return runOr(runF, profileUseRun, opts)
		},
		ValidArgsFunction: firstArgOnly(completeProfiles(f)),
		Example: `  tavo profile use work
  TAVO_PROFILE=local tavo run "Hi"   # one run with another profile`,
	}
}

func profileUseRun(opts *ProfileUseOptions) error {
	f, name := opts.Factory, opts.Name
	cfg, err := loadConfig(f)
	if err != nil {
		return err
	}
	if !cfg.HasProfile(name) {
		return unknownProfileError(cfg, name)
	}
	cfg.DefaultProfile = name
	if err := saveConfig(cfg); err != nil {
		return err
	}
	note(f, "default profile is now %q", name)
	if env := f.Getenv("TAVO_PROFILE"); env != "" && env != name {
		note(f, "note: TAVO_PROFILE=%s is set and still wins in this environment", env)
	}
	return nil
}
