package extensions

import (
	"os"
	"sort"
	"strings"

	"github.com/tavo-cli/tavo/pkg/tools"
)

// baseEnv are the variables of tavo's environment an extension process
// inherits: what programs need to find their tools, files and language, and
// nothing that could carry a secret. Everything else, provider keys
// included, reaches a process only through its env table in the config.
var baseEnv = []string{"PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "TZ", "TMPDIR"}

// processEnv is the environment of an extension process: the base variables
// from getenv, then the configured ones, whose values may name variables of
// tavo's environment as $VAR or ${VAR} ("$$" is a literal "$").
func processEnv(configured map[string]string, getenv func(string) string) []string {
	if getenv == nil {
		getenv = os.Getenv
	}
	var env []string
	for _, k := range baseEnv {
		if _, overridden := configured[k]; overridden {
			continue
		}
		if v := getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	keys := make([]string, 0, len(configured))
	for k := range configured {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env = append(env, k+"="+expand(configured[k], getenv))
	}
	return env
}

// expand replaces $VAR and ${VAR} in s with getenv's values; "$$" stands for
// a literal dollar sign.
func expand(s string, getenv func(string) string) string {
	if !strings.Contains(s, "$") {
		return s
	}
	return os.Expand(s, func(name string) string {
		if name == "$" {
			return "$"
		}
		return getenv(name)
	})
}

// callEnv tells a command which run and call it serves.
func callEnv(call *tools.Call) []string {
	if call == nil || call.Env == nil {
		return nil
	}
	var env []string
	if call.Env.RunID != "" {
		env = append(env, "TAVO_RUN_ID="+call.Env.RunID)
	}
	if call.Env.SessionID != "" {
		env = append(env, "TAVO_SESSION_ID="+call.Env.SessionID)
	}
	if call.ID != "" {
		env = append(env, "TAVO_CALL_ID="+call.ID)
	}
	return env
}
