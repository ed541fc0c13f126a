package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Retention is the [retention] section: how long tavo keeps runs, their
// event journals and the audit log. Every key is off when unset; tavo
// applies it at most once a day, when a command opens the store
// (store.ApplyRetention).
type Retention struct {
	// Runs removes ended runs (with their journals) older than this age,
	// "90d" or a Go duration. Session messages stay.
	Runs string `toml:"runs,omitempty"`
	// KeepFull keeps the event journals of only this many newest ended
	// runs; older runs keep their record without journal. 0 is off.
	KeepFull int `toml:"keep_full,omitempty"`
	// Audit removes audit rows older than this age.
	Audit string `toml:"audit,omitempty"`
}

// IsZero reports whether retention is off altogether.
func (r Retention) IsZero() bool { return r.Runs == "" && r.KeepFull == 0 && r.Audit == "" }

// RunsAge and AuditAge return the ages parsed (0: off); validation has
// checked them.
func (r Retention) RunsAge() time.Duration { d, _ := ParseAge(r.Runs); return d }

// AuditAge is Audit parsed (0: off).
func (r Retention) AuditAge() time.Duration { d, _ := ParseAge(r.Audit); return d }

func (r Retention) validate() error {
	for key, v := range map[string]string{"runs": r.Runs, "audit": r.Audit} {
		if v == "" {
			continue
		}
		if d, err := ParseAge(v); err != nil || d <= 0 {
			return fmt.Errorf("%s %q is not an age like 90d, 36h or 30m", key, v)
		}
	}
	if r.KeepFull < 0 {
		return fmt.Errorf("keep_full must not be negative, got %d", r.KeepFull)
	}
	return nil
}

// ParseAge reads an age: a number of days ("90d") or a Go duration
// ("36h", "90m"). "" is 0.
func ParseAge(s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("invalid age %q", s)
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	return time.ParseDuration(s)
}
