package httpx

import "testing"

func TestRedactSecrets(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"bad key sk-live-1234567890 given", "bad key [redacted] given"},
		{"keysk-live-1234567890tail", "key[redacted]tail"},
		{"fixtures not found: expected next to x", "fixtures not found: expected next to [redacted]"},
		{"key=x&y=1 (x)", "key=[redacted]&y=1 ([redacted])"},
		{"exit max x-ray", "exit max x-ray"},
		{"", ""},
	} {
		if got := RedactSecrets(c.in, "sk-live-1234567890", "x", ""); got != c.want {
			t.Errorf("RedactSecrets(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
