package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
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

// FuzzResolveRunNumbers feeds arbitrary numbers, durations and profile
// duration text to the run-settings resolver: it must never panic, every
// refusal must be one line, and whatever it accepts must lie within the
// ranges (or be the documented 0) — nothing out of range is reinterpreted.
func FuzzResolveRunNumbers(f *testing.F) {
	f.Add(5, 32, 0, int64(time.Minute), int64(0), "60s", "1m", "temperature=1")
	f.Add(0, 0, -5, int64(-time.Second), int64(-5*time.Second), "-1s", "0", "model=x")
	f.Add(1001, 10001, 1<<40, int64(1<<62), int64(1), "1e3h", "9999999h", "=")
	f.Fuzz(func(t *testing.T, rounds, calls, maxOut int, toolTimeout, timeout int64, profToolTimeout, profTimeout, param string) {
		p := Profile{ToolTimeout: profToolTimeout, Timeout: profTimeout}
		flags := RunFlags{Params: []string{param}}
		// Half the inputs go through the flags, half through the profile.
		if rounds%2 == 0 {
			flags.MaxRounds, flags.MaxToolCalls, flags.MaxOutputTokens = &rounds, &calls, &maxOut
			tt, to := time.Duration(toolTimeout), time.Duration(timeout)
			flags.ToolTimeout, flags.Timeout = &tt, &to
		} else {
			p.MaxRounds, p.MaxToolCalls, p.MaxOutputTokens = rounds, calls, maxOut
		}
		s, err := ResolveRun(&Resolved{Protocol: "openai", Profile: p}, flags)
		if err != nil {
			if strings.ContainsRune(err.Error(), '\n') {
				t.Fatalf("multi-line error: %q", err)
			}
			return
		}
		for _, c := range []struct {
			r Range[int]
			v int
		}{{MaxRoundsRange, s.MaxRounds}, {MaxToolCallsRange, s.MaxToolCalls}, {MaxOutputTokensRange, s.MaxOutputTokens}} {
			if !c.r.Contains(c.v) {
				t.Fatalf("%s accepted out of range: %d", c.r.Flag, c.v)
			}
		}
		if !ToolTimeoutRange.Contains(s.ToolTimeout) || !TimeoutRange.Contains(s.Timeout) {
			t.Fatalf("durations accepted out of range: %v %v", s.ToolTimeout, s.Timeout)
		}
		// A profile that loads must resolve: Validate and ResolveRun agree.
		if err := p.Validate(); err == nil {
			if _, err := ResolveRun(&Resolved{Protocol: "openai", Profile: p}, RunFlags{}); err != nil {
				t.Fatalf("a valid profile does not resolve: %v", err)
			}
		}
	})
}
