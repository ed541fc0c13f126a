package fake

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/textproto"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// FixturesEnv names an environment variable that, when set, is the
// provider-fixtures folder, overriding the search from the working directory.
const FixturesEnv = "TAVO_PROVIDER_FIXTURES"

// ErrNoFixtures is returned when the provider-fixtures folder cannot be found.
var ErrNoFixtures = errors.New("provider fixtures not found: expected ../shared/provider-fixtures next to the repository (or set " + FixturesEnv + ")")

// FixturesDir finds the provider-fixtures folder: $TAVO_PROVIDER_FIXTURES, or
// shared/provider-fixtures in the working directory or one of its parents
// (the repository sits beside shared/).
func FixturesDir() (string, error) {
	if dir := os.Getenv(FixturesEnv); dir != "" {
		return dir, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoFixtures, err)
	}
	for dir := wd; ; {
		candidate := filepath.Join(dir, "shared", "provider-fixtures")
		if st, err := os.Stat(candidate); err == nil && st.IsDir() {
			return candidate, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", ErrNoFixtures
		}
		dir = parent
	}
}

// Fixture returns a Reply serving the named scenario file
// ("openai-chat/text.stream.http") byte for byte. The test is skipped when
// the fixtures are not there.
func Fixture(tb testing.TB, name string) Reply {
	tb.Helper()
	data, err := readFixture(name)
	if errors.Is(err, ErrNoFixtures) {
		tb.Skipf("skipping: %v", err)
	}
	if err != nil {
		tb.Fatalf("fake: %v", err)
	}
	return Reply{Raw: string(data)}
}

// readFixture reads a scenario by path relative to scenarios/, or a file path.
func readFixture(name string) ([]byte, error) {
	if st, err := os.Stat(name); err == nil && !st.IsDir() {
		return os.ReadFile(name)
	}
	dir, err := FixturesDir()
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(filepath.Join(dir, "scenarios", filepath.FromSlash(name)))
	if err != nil {
		return nil, fmt.Errorf("cannot read fixture %q: %w", name, err)
	}
	return data, nil
}

// Recorded is a parsed .http fixture.
type Recorded struct {
	Status int
	Header http.Header
	Body   []byte
}

// ParseHTTP reads the fixture format: leading "#" comment lines, a status
// line "HTTP 200" (or "HTTP/1.1 200 OK"), header lines, a blank line, then
// the body byte for byte. The fixture header "x-harness-eol: crlf" asks for
// the body's line feeds to be sent as CRLF (Gemini's framing); it is not sent.
func ParseHTTP(data []byte) (*Recorded, error) {
	rest := data
	nextLine := func() (string, bool) {
		if len(rest) == 0 {
			return "", false
		}
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		return strings.TrimSuffix(string(line), "\r"), true
	}
	var status string
	for {
		line, ok := nextLine()
		if !ok {
			return nil, errors.New("fixture has no status line")
		}
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		status = line
		break
	}
	fields := strings.Fields(status)
	if len(fields) < 2 || !strings.HasPrefix(fields[0], "HTTP") {
		return nil, fmt.Errorf("fixture status line %q is not like \"HTTP 200\"", status)
	}
	code, err := strconv.Atoi(fields[1])
	if err != nil || code < 100 || code > 999 {
		return nil, fmt.Errorf("fixture status line %q has no valid status code", status)
	}
	rec := &Recorded{Status: code, Header: http.Header{}}
	for {
		line, ok := nextLine()
		if !ok || line == "" {
			break
		}
		name, value, found := strings.Cut(line, ":")
		if !found {
			return nil, fmt.Errorf("fixture header line %q has no colon", line)
		}
		rec.Header.Add(textproto.TrimString(name), textproto.TrimString(value))
	}
	rec.Body = rest
	if strings.EqualFold(rec.Header.Get("X-Harness-Eol"), "crlf") {
		rec.Body = toCRLF(rec.Body)
	}
	rec.Header.Del("X-Harness-Eol")
	return rec, nil
}

// toCRLF turns every bare LF into CRLF.
func toCRLF(b []byte) []byte {
	var out bytes.Buffer
	out.Grow(len(b) + len(b)/20)
	for i, c := range b {
		if c == '\n' && (i == 0 || b[i-1] != '\r') {
			out.WriteByte('\r')
		}
		out.WriteByte(c)
	}
	return out.Bytes()
}
