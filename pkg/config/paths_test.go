package config

import (
	"path/filepath"
	"testing"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestDefaultPath(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"TAVO_CONFIG": "/etc/t.toml", "XDG_CONFIG_HOME": "/x", "HOME": "/h"}, "/etc/t.toml"},
		{map[string]string{"XDG_CONFIG_HOME": "/x", "HOME": "/h"}, "/x/tavo/config.toml"},
		{map[string]string{"HOME": "/h"}, "/h/.config/tavo/config.toml"},
		// A relative XDG value is ignored, as the XDG spec asks.
		{map[string]string{"XDG_CONFIG_HOME": "rel", "HOME": "/h"}, "/h/.config/tavo/config.toml"},
	} {
		if got := DefaultPath(env(tc.env)); got != filepath.FromSlash(tc.want) {
			t.Errorf("DefaultPath(%v) = %q, want %q", tc.env, got, tc.want)
		}
	}
}

func TestDefaultDataDir(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"TAVO_DATA_DIR": "/d", "XDG_DATA_HOME": "/x", "HOME": "/h"}, "/d"},
		{map[string]string{"XDG_DATA_HOME": "/x", "HOME": "/h"}, "/x/tavo"},
		{map[string]string{"HOME": "/h"}, "/h/.local/share/tavo"},
	} {
		if got := DefaultDataDir(env(tc.env)); got != filepath.FromSlash(tc.want) {
			t.Errorf("DefaultDataDir(%v) = %q, want %q", tc.env, got, tc.want)
		}
	}
}
