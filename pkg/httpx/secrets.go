package httpx

import "strings"

// Redacted replaces a secret in text meant for people.
const Redacted = "[redacted]"

// shortSecret is the length below which a secret is redacted only where it
// stands as a whole token: a key of a letter or two (a placeholder, a test
// key) would otherwise turn every "x" of an error message into [redacted].
const shortSecret = 8

// RedactSecrets removes every secret from s: upstream error bodies may echo
// the key they rejected, and a compatible server may echo it whole. A
// secret of shortSecret bytes or more goes wherever it occurs; a shorter
// one only where no letter, digit, '_' or '-' touches it.
func RedactSecrets(s string, secrets ...string) string {
	for _, sec := range secrets {
		switch {
		case sec == "":
		case len(sec) >= shortSecret:
			s = strings.ReplaceAll(s, sec, Redacted)
		default:
			s = redactToken(s, sec)
		}
	}
	return s
}

// redactToken replaces the occurrences of tok in s that stand alone.
func redactToken(s, tok string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, tok)
		if i < 0 {
			break
		}
		end := i + len(tok)
		if (i == 0 || !tokenByte(s[i-1])) && (end == len(s) || !tokenByte(s[end])) {
			b.WriteString(s[:i])
			b.WriteString(Redacted)
		} else {
			b.WriteString(s[:end])
		}
		s = s[end:]
	}
	if b.Len() == 0 {
		return s
	}
	b.WriteString(s)
	return b.String()
}

func tokenByte(c byte) bool {
	return c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
