package config

import (
	"os"
	"path/filepath"
)

// DefaultPath returns the config file path: TAVO_CONFIG, else
// $XDG_CONFIG_HOME/tavo/config.toml, else ~/.config/tavo/config.toml.
func DefaultPath(getenv func(string) string) string {
	if p := getenv("TAVO_CONFIG"); p != "" {
		return p
	}
	return filepath.Join(xdgDir(getenv, "XDG_CONFIG_HOME", ".config"), "tavo", "config.toml")
}

// DefaultDataDir returns the data directory: TAVO_DATA_DIR, else
// $XDG_DATA_HOME/tavo, else ~/.local/share/tavo.
func DefaultDataDir(getenv func(string) string) string {
	if p := getenv("TAVO_DATA_DIR"); p != "" {
		return p
	}
	return filepath.Join(xdgDir(getenv, "XDG_DATA_HOME", filepath.Join(".local", "share")), "tavo")
}

// xdgDir returns $env when it is absolute (the XDG spec says relative values
// are to be ignored), else ~/fallback.
func xdgDir(getenv func(string) string, env, fallback string) string {
	if d := getenv(env); d != "" && filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(homeDir(getenv), fallback)
}

func homeDir(getenv func(string) string) string {
	if h := getenv("HOME"); h != "" {
		return h
	}
	if h, err := os.UserHomeDir(); err == nil {
		return h
	}
	// No home at all (a bare container): fall back to the working directory
	// rather than the filesystem root.
	return "."
}
