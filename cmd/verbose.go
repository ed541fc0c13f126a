package cmd

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/httpx"
)

// This file is what -v prints (docs/output.md, "Verbose output"): where the
// config file and data directory are, which profile and settings a run
// uses and where each came from, and every HTTP request with its answer
// and retry decisions. Every line goes to stderr, starting "tavo: ", so
// stdout stays the command's output; no key is ever printed, and URLs lose
// their query values (httpx.RedactURL).

// verbosef prints one diagnostic line on stderr when -v was given.
func verbosef(f *Factory, format string, args ...any) {
	if f.Verbose {
		fmt.Fprintf(f.IO.ErrOut, "tavo: "+format+"\n", args...)
	}
}

// verboseContext returns ctx carrying an httpx.Trace that prints each HTTP
// attempt and retry decision, when -v was given; else ctx itself.
func verboseContext(ctx context.Context, f *Factory) context.Context {
	if !f.Verbose {
		return ctx
	}
	return httpx.WithTrace(ctx, &httpx.Trace{
		Attempt: func(a httpx.AttemptInfo) {
			took := a.Duration.Milliseconds()
			if a.Err != nil {
				verbosef(f, "http: %s %s: no answer after %dms: %v", a.Method, a.URL, took, a.Err)
				return
			}
			verbosef(f, "http: %s %s: %d in %dms", a.Method, a.URL, a.Status, took)
		},
		Retry: func(attempt int, wait time.Duration, reason string) {
			verbosef(f, "http: retry %d in %dms: %s", attempt, wait.Milliseconds(), reason)
		},
	})
}

// settingSource names where the config path or data directory came from:
// its flag, its environment variable, or the XDG default.
func settingSource(flagValue, envName string, getenv func(string) string) string {
	switch {
	case flagValue != "":
		return "flag"
	case getenv(envName) != "":
		return "env " + envName
	}
	return "default"
}

// verboseRunSettings prints the provider and every run setting a run will
// use, each with where it came from, and the notes of the resolution.
func verboseRunSettings(f *Factory, r *config.Resolved, s *config.RunSettings) {
	if !f.Verbose {
		return
	}
	if r.ProfileName != "" {
		verbosef(f, "profile: %s (%s)", r.ProfileName, r.ProfileSource)
	} else {
		verbosef(f, "profile: none (flags and environment only)")
	}
	verbosef(f, "protocol: %s (%s)", r.Protocol, r.ProtocolSource)
	verbosef(f, "model: %s (%s)", r.Model, r.ModelSource)
	verbosef(f, "base_url: %s (%s)", httpx.RedactURL(r.BaseURL), r.BaseURLSource)
	switch {
	case r.KeySource != "":
		verbosef(f, "key: set (%s)", r.KeySource)
	default:
		verbosef(f, "key: none (local server)")
	}
	values := map[string]string{
		"tools":             strconv.FormatBool(s.Tools),
		"dynamic_tools":     strconv.FormatBool(s.DynamicTools),
		"stream":            strconv.FormatBool(s.Stream),
		"max_rounds":        strconv.Itoa(s.MaxRounds),
		"max_tool_calls":    strconv.Itoa(s.MaxToolCalls),
		"max_output_tokens": strconv.Itoa(s.MaxOutputTokens),
		"tool_timeout":      config.DurationText(s.ToolTimeout),
		"timeout":           timeoutText(s.Timeout),
		"reasoning_context": s.ReasoningContext,
		"params":            strconv.Itoa(len(s.Params)) + " fields",
		"context_window":    strconv.Itoa(s.ContextWindow),
	}
	names := make([]string, 0, len(values))
	for k := range values {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		src := s.Sources[k]
		if src == "" {
			src = "default"
		}
		verbosef(f, "setting: %s = %s (%s)", k, values[k], src)
	}
	for _, n := range r.Notes {
		verbosef(f, "%s", n)
	}
}

// timeoutText is a run's time limit, 0 being none.
func timeoutText(d time.Duration) string {
	if d <= 0 {
		return "none"
	}
	return config.DurationText(d)
}
