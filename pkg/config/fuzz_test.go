package config

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzLoad feeds arbitrary files to Load: it must never panic, every
// failure must be a one-line *Error, and whatever loads must survive a
// Save and a second Load unchanged.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(fullConfig))
	f.Add([]byte("default_profile = \"a\"\n[profiles.a]\nmodel = \"m\"\n"))
	f.Add([]byte("[profiles.a]\nparams = { t = 0.5, n = [1, 2], o = { k = \"v\" } }\n"))
	f.Add([]byte("[profiles.a]\nmodle = 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		path := filepath.Join(dir, "c.toml")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		c, err := Load(path)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error is %T, not *Error", err)
			}
			for _, r := range err.Error() {
				if r == '\n' {
					t.Fatalf("multi-line error: %q", err)
				}
			}
			return
		}
		c.path = filepath.Join(dir, "out.toml")
		if err := c.Save(); err != nil {
			t.Fatalf("a loaded config does not save: %v", err)
		}
		c2, err := Load(c.path)
		if err != nil {
			t.Fatalf("a saved config does not load: %v", err)
		}
		c.path, c2.path = "", ""
		if !reflect.DeepEqual(normalize(c), normalize(c2)) {
			t.Fatalf("round trip changed the config:\n%#v\n%#v", c, c2)
		}
	})
}

// normalize maps empty collections to nil: TOML cannot tell them apart
// once written with omitempty.
func normalize(c *Config) *Config {
	if len(c.Profiles) == 0 {
		c.Profiles = nil
	}
	if len(c.Tools) == 0 {
		c.Tools = nil
	}
	if len(c.MCP) == 0 {
		c.MCP = nil
	}
	if len(c.Search.APIs) == 0 {
		c.Search.APIs = nil
	}
	if len(c.Search.Fallback) == 0 {
		c.Search.Fallback = nil
	}
	for _, p := range c.Profiles {
		if len(p.Headers) == 0 {
			p.Headers = nil
		}
		if len(p.Query) == 0 {
			p.Query = nil
		}
		if len(p.Params) == 0 {
			p.Params = nil
		}
	}
	return c
}
