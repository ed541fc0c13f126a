package config

// Defaults of the [subagents] section (SPEC §13).
const (
	// DefaultSubagentMaxDepth is how deep a tree of sub-agents may grow:
	// the root run's children are depth 1, theirs depth 2.
	DefaultSubagentMaxDepth = 2
	// DefaultSubagentMaxRunning is how many sub-agents of one root run may
	// run at once.
	DefaultSubagentMaxRunning = 4
	// DefaultSubagentMaxPerRun is how many sub-agent runs one root run may
	// start in all.
	DefaultSubagentMaxPerRun = 16
)

// Subagents is the [subagents] section: the limits of a tree of sub-agents
// (SPEC §13). A key left out (or 0) has its default; a value out of its
// range (ranges.go) is refused when the config loads.
type Subagents struct {
	// MaxDepth bounds the depth of a tree (the root is 0).
	MaxDepth int `toml:"max_depth,omitempty"`
	// MaxRunning bounds the sub-agents of one root run running at once.
	MaxRunning int `toml:"max_running,omitempty"`
	// MaxPerRun bounds the sub-agent runs one root run starts.
	MaxPerRun int `toml:"max_per_run,omitempty"`
}

// Limits returns the section's values with defaults for those left out.
func (s Subagents) Limits() (maxDepth, maxRunning, maxPerRun int) {
	pick := func(v, def int) int {
		if v == 0 {
			return def
		}
		return v
	}
	return pick(s.MaxDepth, DefaultSubagentMaxDepth), pick(s.MaxRunning, DefaultSubagentMaxRunning),
		pick(s.MaxPerRun, DefaultSubagentMaxPerRun)
}

func (s Subagents) validate() error {
	for _, c := range []struct {
		r Range[int]
		v int
	}{{SubagentMaxDepthRange, s.MaxDepth}, {SubagentMaxRunningRange, s.MaxRunning}, {SubagentMaxPerRunRange, s.MaxPerRun}} {
		if c.v != 0 {
			if err := c.r.CheckKey(c.v); err != nil {
				return err
			}
		}
	}
	return nil
}
