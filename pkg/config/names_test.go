package config

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// The hand-written name checks must accept exactly what these expressions
// accept (they were the checks before start-up time mattered).
func TestNameChecksMatchTheirRegexps(t *testing.T) {
	checks := []struct {
		name string
		re   *regexp.Regexp
		fn   func(string) bool
	}{
		{"profile", regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`), isProfileName},
		{"env", regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`), isEnvName},
		{"tool", regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]{0,63}$`), isToolName},
	}
	fixed := []string{"", "a", "_", "-", ".", "9", "a.b", "a-b", "a_b", "A9", "é", "a b", "a\n",
		strings.Repeat("a", 64), strings.Repeat("a", 65), "_" + strings.Repeat("x", 63), "_" + strings.Repeat("x", 64)}
	const alphabet = "aZ09._- /é\x00"
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		n := r.IntN(70)
		var b strings.Builder
		for j := 0; j < n; j++ {
			b.WriteByte(alphabet[r.IntN(len(alphabet))])
		}
		fixed = append(fixed, b.String())
	}
	for _, c := range checks {
		for _, s := range fixed {
			if got, want := c.fn(s), c.re.MatchString(s); got != want {
				t.Fatalf("%s name %q: got %v, want %v", c.name, s, got, want)
			}
		}
	}
}
