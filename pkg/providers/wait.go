package providers

import (
	"strconv"
	"strings"
	"time"
)

// WaitFromMessage reads the wait a rate-limit message asks for, as OpenAI
// writes it ("Please try again in 1.2s.", "… in 20ms.", "… in 1m30s"), 0
// when the message names none. OpenAI's stream error events carry no
// headers, so this is the only place their wait is said; the official SDKs
// read it the same way. The number must be positive and at most an hour.
func WaitFromMessage(msg string) time.Duration {
	const marker = "try again in "
	i := strings.Index(strings.ToLower(msg), marker)
	if i < 0 {
		return 0
	}
	rest := msg[i+len(marker):]
	end := 0
	for end < len(rest) && strings.IndexByte("0123456789.hms", rest[end]) >= 0 {
		end++
	}
	// A sentence's full stop is not part of the duration.
	d, err := time.ParseDuration(strings.TrimRight(rest[:end], "."))
	if err != nil {
		// "2 seconds" style: a plain number of seconds.
		fields := strings.Fields(rest)
		if len(fields) < 2 || !strings.HasPrefix(strings.ToLower(fields[1]), "second") {
			return 0
		}
		secs, perr := strconv.ParseFloat(fields[0], 64)
		if perr != nil {
			return 0
		}
		d = time.Duration(secs * float64(time.Second))
	}
	if d <= 0 || d > time.Hour {
		return 0
	}
	return d
}
