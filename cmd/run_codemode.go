package cmd

import (
	"errors"

	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/session"
	"github.com/tavo-cli/tavo/pkg/tools"
	"github.com/tavo-cli/tavo/pkg/tools/code"
)

// codeModeFlags decides code mode for a run (--code-mode, the session's
// remembered choice, the profile's code_mode) and applies what it implies:
// tools on, as code mode is a way of using them.
func codeModeFlags(eff session.Config, p config.Profile, rf *config.RunFlags) (config.CodeMode, error) {
	cm := config.RunCodeMode(eff.CodeMode, p)
	if !cm.On {
		return cm, nil
	}
	if rf.Tools != nil && !*rf.Tools {
		if eff.CodeMode != nil {
			return cm, errors.New("--code-mode calls tools from code but --tools=false turns tools off: drop one of them")
		}
		// The profile's code_mode yields to a run without tools.
		cm.On = false
		return cm, nil
	}
	on := true
	rf.Tools = &on
	return cm, nil
}

// useCodeMode adds tavo_code to a run's catalog, listing its tools, and
// returns the tools the model is sent: tavo_code, then the direct ones.
// Without code mode it returns nil (every tool as usual).
func useCodeMode(cat *tools.Catalog, cm config.CodeMode) ([]string, error) {
	if !cm.On || cat == nil {
		return nil, nil
	}
	t := code.New(code.Options{Catalog: cat, Direct: cm.Direct, Timeout: cm.Timeout})
	if err := cat.Add(t); err != nil {
		return nil, err
	}
	return append([]string{code.Name}, cm.Direct...), nil
}
