package config

import (
	"os"
	"path/filepath"
	"strings"
)

// RunWorkspace is the directory a run's workspace:// reads: the
// --workspace flag when given, else the profile's workspace key; "" means
// none (every workspace read is refused). A leading "~/" is the home
// directory.
func RunWorkspace(flag string, p Profile) string {
	dir := flag
	if dir == "" {
		dir = p.Workspace
	}
	if rest, ok := strings.CutPrefix(dir, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			dir = filepath.Join(home, rest)
		}
	}
	return dir
}

// SelectedProfile is the profile a command uses without resolving a
// provider (`tavo read`): name, else TAVO_PROFILE, else the default
// profile. It returns "" and a zero profile when none is chosen, and the
// same error as a run for a name that is no profile.
func (c *Config) SelectedProfile(name string, getenv func(string) string) (string, Profile, error) {
	from := "--profile"
	if name == "" {
		name, from = getenv("TAVO_PROFILE"), "TAVO_PROFILE"
	}
	if name == "" {
		name, from = c.DefaultProfile, "default_profile"
	}
	if name == "" {
		return "", Profile{}, nil
	}
	p, ok := c.Profiles[name]
	if !ok || p == nil {
		return "", Profile{}, c.unknownProfile(name, from)
	}
	return name, *p, nil
}
