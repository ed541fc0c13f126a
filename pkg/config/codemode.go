package config

import (
	"slices"
	"time"
)

// Code mode's settings (SPEC §12): the keys code_mode, code_mode_direct and
// code_timeout of a profile, and the --code-mode flag.
const (
	// DefaultCodeMode leaves code mode off.
	DefaultCodeMode = false
	// DefaultCodeTimeout is the wall clock of one program.
	DefaultCodeTimeout = 30 * time.Second
)

// DefaultCodeModeDirect are the tools the model calls directly in code mode
// when the profile names none: asking, reading, tool search and the
// end-of-turn tools (those a catalog lacks are left out).
var DefaultCodeModeDirect = []string{"tavo_ask_user", "tavo_read", "tavo_tool_search", "tavo_finish", "tavo_send_message", "tavo_wait"}

// CodeMode is how a run uses code mode.
type CodeMode struct {
	// On is code mode itself.
	On bool
	// Direct are the tools the model calls directly beside tavo_code.
	Direct []string
	// Timeout is one program's wall clock.
	Timeout time.Duration
}

// RunCodeMode decides code mode for a run: the flag (or the session's
// remembered choice) when given, else the profile's code_mode; the direct
// list and the timeout come from the profile or their defaults. The
// profile was validated, so its code_timeout parses.
func RunCodeMode(flag *bool, p Profile) CodeMode {
	c := CodeMode{On: pickBool(flag, p.CodeMode, DefaultCodeMode), Direct: slices.Clone(DefaultCodeModeDirect), Timeout: DefaultCodeTimeout}
	if p.CodeModeDirect != nil {
		c.Direct = slices.Clone(p.CodeModeDirect)
	}
	if p.CodeTimeout != "" {
		if d, err := parseDurationIn(CodeTimeoutRange, p.CodeTimeout); err == nil {
			c.Timeout = d
		}
	}
	return c
}
