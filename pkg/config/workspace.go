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
