package config

import (
	"fmt"
	"time"
)

// Range is the allowed values of a numeric setting: the flag and profile key
// that set it, its bounds and what 0 means. A value outside the range is
// refused with one line naming the flag (or key) and the range, never
// silently reinterpreted (docs/ranges.md has the table for people).
type Range[T int | int64 | time.Duration] struct {
	// Flag is the command-line flag ("--max-rounds"); "" when none sets it.
	Flag string
	// Key is the profile key ("max_rounds"); "" when no profile key sets it.
	Key string
	// Min and Max bound the value, both included; Max 0 is no upper bound
	// (a sequence number).
	Min, Max T
	// Zero is what 0 means when it is accepted outside [Min, Max] ("no
	// limit"); "" when 0 is refused like any other value out of range.
	Zero string
}

// The ranges of the run settings, beside their defaults in runsettings.go.
// A profile that leaves an integer key at 0 (or out) gets the default: TOML
// cannot tell 0 from unset there, so a profile's 0 is never "no limit".
var (
	// MaxRoundsRange bounds --max-rounds and max_rounds.
	MaxRoundsRange = Range[int]{Flag: "--max-rounds", Key: "max_rounds", Min: 1, Max: 1000}
	// MaxToolCallsRange bounds --max-tool-calls and max_tool_calls. 0 is
	// refused: it used to mean the default, which surprised everyone; a run
	// without tools leaves -T off.
	MaxToolCallsRange = Range[int]{Flag: "--max-tool-calls", Key: "max_tool_calls", Min: 1, Max: 10000}
	// MaxOutputTokensRange bounds --max-output-tokens and max_output_tokens.
	MaxOutputTokensRange = Range[int]{Flag: "--max-output-tokens", Key: "max_output_tokens", Min: 1, Max: 10_000_000, Zero: "the provider's default"}
	// ContextWindowRange bounds --context-window (profile set) and context_window.
	ContextWindowRange = Range[int]{Flag: "--context-window", Key: "context_window", Min: 1, Max: 100_000_000, Zero: "unknown"}
	// FetchContextWindowRange bounds fetch_context_window: at least room for
	// one part of a page beside the question and the answer.
	FetchContextWindowRange = Range[int]{Key: "fetch_context_window", Min: 4_000, Max: 100_000_000, Zero: "32000 assumed"}
	// ToolTimeoutRange bounds --tool-timeout and tool_timeout (also the
	// timeout of a command tool and of `tavo tools call --timeout`).
	ToolTimeoutRange = Range[time.Duration]{Flag: "--tool-timeout", Key: "tool_timeout", Min: time.Millisecond, Max: 24 * time.Hour}
	// TimeoutRange bounds --timeout and timeout, a whole run's limit.
	TimeoutRange = Range[time.Duration]{Flag: "--timeout", Key: "timeout", Min: time.Millisecond, Max: 720 * time.Hour, Zero: "no limit"}
	// ResponseTimeoutRange bounds --response-timeout and response_timeout.
	ResponseTimeoutRange = Range[time.Duration]{Flag: "--response-timeout", Key: "response_timeout", Min: time.Millisecond, Max: 24 * time.Hour}
	// StreamIdleTimeoutRange bounds --stream-idle-timeout and stream_idle_timeout.
	StreamIdleTimeoutRange = Range[time.Duration]{Flag: "--stream-idle-timeout", Key: "stream_idle_timeout", Min: time.Millisecond, Max: 24 * time.Hour}
	// SubagentMaxDepthRange bounds [subagents] max_depth (SPEC §13).
	SubagentMaxDepthRange = Range[int]{Key: "max_depth", Min: 1, Max: 2}
	// SubagentMaxRunningRange bounds [subagents] max_running.
	SubagentMaxRunningRange = Range[int]{Key: "max_running", Min: 1, Max: 4}
	// SubagentMaxPerRunRange bounds [subagents] max_per_run.
	SubagentMaxPerRunRange = Range[int]{Key: "max_per_run", Min: 1, Max: 16}
	// CodeTimeoutRange bounds code_timeout, the wall clock of one code-mode
	// program (SPEC §12).
	CodeTimeoutRange = Range[time.Duration]{Key: "code_timeout", Min: time.Millisecond, Max: 24 * time.Hour}
)

// The ranges of goals, loops and the worker (SPEC §14, docs/goals-loops.md).
var (
	// GoalTurnsRange bounds `tavo run --goal … --max-turns`.
	GoalTurnsRange = Range[int]{Flag: "--max-turns", Min: 1, Max: MaxGoalTurns}
	// LoopTurnsRange bounds `tavo loops create --max-turns`.
	LoopTurnsRange = Range[int]{Flag: "--max-turns", Min: 1, Max: 10000}
	// LoopEveryRange bounds `tavo loops create --every`.
	LoopEveryRange = Range[time.Duration]{Flag: "--every", Min: 10 * time.Second, Max: 8760 * time.Hour}
	// WorkerConcurrencyRange bounds `tavo worker --concurrency`.
	WorkerConcurrencyRange = Range[int]{Flag: "--concurrency", Min: 1, Max: 256}
	// WorkerGraceRange bounds `tavo worker --grace`.
	WorkerGraceRange = Range[time.Duration]{Flag: "--grace", Min: 0, Max: 24 * time.Hour}
)

// MaxGoalTurns is the most turns a goal may have.
const MaxGoalTurns = 1000

// Contains reports whether v is allowed: within [Min, Max], or 0 when 0
// has a meaning.
func (r Range[T]) Contains(v T) bool {
	return v >= r.Min && (r.Max == 0 || v <= r.Max) || v == 0 && r.Zero != ""
}

// Check returns nil when v is allowed, else an error naming the flag and
// the range: "--max-tool-calls must be 1-10000, got 0".
func (r Range[T]) Check(v T) error { return r.check(r.Flag, v) }

// CheckKey is Check naming the profile key: "max_rounds must be 1-1000, got -1".
func (r Range[T]) CheckKey(v T) error { return r.check(r.Key, v) }

// CheckAs is Check naming name, for a setting reached under another name
// (a command tool's timeout is checked against ToolTimeoutRange).
func (r Range[T]) CheckAs(name string, v T) error { return r.check(name, v) }

func (r Range[T]) check(name string, v T) error {
	if r.Contains(v) {
		return nil
	}
	return fmt.Errorf("%s must be %s, got %s", name, r.Text(), rangeValue(v))
}

// Text describes the range for messages and help: "1-1000", "0 (no limit)
// or 1ms-720h".
func (r Range[T]) Text() string {
	span := rangeValue(r.Min) + "-" + rangeValue(r.Max)
	if r.Max == 0 {
		span = "at least " + rangeValue(r.Min)
	}
	if r.Zero != "" {
		return "0 (" + r.Zero + ") or " + span
	}
	return span
}

// rangeValue writes a bound or value as a person types it: 60s, not 1m0s.
func rangeValue[T int | int64 | time.Duration](v T) string {
	if d, ok := any(v).(time.Duration); ok {
		if d <= 0 {
			return d.String()
		}
		return DurationText(d)
	}
	return fmt.Sprint(v)
}

// parseDurationIn parses a profile key's duration and checks it against r.
func parseDurationIn(r Range[time.Duration], s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%s %q is not a duration (use e.g. 30s, 2m, 1h30m)", r.Key, s)
	}
	if err := r.CheckKey(d); err != nil {
		return 0, err
	}
	return d, nil
}
