package ids

import (
	"regexp"
	"testing"
	"time"
)

func TestNewShapeAndOrder(t *testing.T) {
	re := regexp.MustCompile(`^run_[0-9A-HJKMNP-TV-Z]{26}$`)
	t0 := time.Date(2026, 11, 29, 15, 0, 0, 0, time.UTC)
	a := New("run", t0)
	b := New("run", t0.Add(time.Millisecond))
	if !re.MatchString(a) || !re.MatchString(b) {
		t.Fatalf("bad shape: %s %s", a, b)
	}
	if !(a < b) {
		t.Fatalf("IDs do not sort by time: %s >= %s", a, b)
	}
	seen := map[string]bool{}
	for i := 0; i < 1000; i++ {
		id := New("ses", t0)
		if seen[id] {
			t.Fatalf("duplicate id %s", id)
		}
		seen[id] = true
	}
}
