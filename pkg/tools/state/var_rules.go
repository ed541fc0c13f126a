package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Variable limits.
const (
	// MaxVarNameLen is the longest variable name, in bytes.
	MaxVarNameLen = 256
	// MaxValueBytes is the largest value, as compact JSON. A larger one is
	// refused (limit_exceeded; exit 2 for `tavo var set`).
	MaxValueBytes = 1 << 20
	// WarnValueBytes: a value larger than this, as compact JSON, is saved
	// with a warning, since a tool result over 64 KiB is cut when read back.
	WarnValueBytes = 64 << 10
	// WarnBlobBytes: a string inside a value longer than this that is a
	// data: URL or looks like base64 is saved with a warning.
	WarnBlobBytes = 8 << 10
)

// ValueTooLargeError is PrepareValue's error for a value over
// MaxValueBytes.
type ValueTooLargeError struct {
	// Bytes is the size of the value as compact JSON.
	Bytes int
}

func (e *ValueTooLargeError) Error() string {
	return fmt.Sprintf("the value is %d bytes as JSON; a variable holds at most %d (1 MiB): save large content as a file and keep its path in the variable",
		e.Bytes, MaxValueBytes)
}

// CheckVarName checks a variable name: a dotted path of one or more
// segments, each made of ASCII letters, digits, '_' or '-', joined by single
// dots, at most MaxVarNameLen bytes ("user.prefs.theme", "last-run_id").
// Each name is its own variable: the dots group names for people and for
// prefix listings, they do not nest values.
func CheckVarName(name string) error {
	switch {
	case name == "":
		return errors.New("a variable name cannot be empty")
	case len(name) > MaxVarNameLen:
		return fmt.Errorf("variable name %.40q… is %d bytes long; the most is %d", name, len(name), MaxVarNameLen)
	case !utf8.ValidString(name):
		return fmt.Errorf("variable name %q is not valid UTF-8", name)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return fmt.Errorf("invalid variable name %q: %q is not allowed (use letters, digits, '_' or '-' in dot-separated segments)", name, r)
		}
	}
	for i, seg := range strings.Split(name, ".") {
		if seg == "" {
			return fmt.Errorf("invalid variable name %q: segment %d is empty (no leading, trailing or double dots)", name, i+1)
		}
	}
	return nil
}

// PrepareValue checks a JSON value to be saved and returns it compacted,
// the form it is stored in. It fails when raw is not one JSON value, and
// with *ValueTooLargeError when the compact form exceeds MaxValueBytes. warning
// is non-empty when the value is saved but belongs in a file: larger than
// WarnValueBytes, or holding a string of more than WarnBlobBytes that is a
// data: URL or looks like base64 (images, audio and other binary data).
func PrepareValue(raw []byte) (compact []byte, warning string, err error) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil || buf.Len() == 0 {
		return nil, "", errors.New("the value is not valid JSON")
	}
	compact = buf.Bytes()
	if len(compact) > MaxValueBytes {
		return nil, "", &ValueTooLargeError{Bytes: len(compact)}
	}
	return compact, valueWarning(compact), nil
}

// valueWarning applies the warning rule of PrepareValue to a compact value.
func valueWarning(compact []byte) string {
	const advice = "Variables are meant for small values: save large or binary content with tavo_file_save " +
		`and keep only its path (like "chat/image.png") in the variable.`
	if len(compact) > WarnValueBytes {
		return fmt.Sprintf("The value was saved, but it is %d bytes; reading it back returns at most 64 KiB. %s",
			len(compact), advice)
	}
	if len(compact) <= WarnBlobBytes {
		return ""
	}
	dec := json.NewDecoder(bytes.NewReader(compact))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return ""
	}
	if kind := findBlob(v); kind != "" {
		return fmt.Sprintf("The value was saved, but it holds %s longer than %d KiB, which slows every read. %s",
			kind, WarnBlobBytes>>10, advice)
	}
	return ""
}

// findBlob returns "a data URL" or "base64 data" for the first long string
// in v that is one, else "".
func findBlob(v any) string {
	switch v := v.(type) {
	case string:
		if len(v) <= WarnBlobBytes {
			return ""
		}
		if isDataURL(v) {
			return "a data URL"
		}
		if looksBase64(v) {
			return "base64 data"
		}
	case []any:
		for _, x := range v {
			if k := findBlob(x); k != "" {
				return k
			}
		}
	case map[string]any:
		for _, x := range v {
			if k := findBlob(x); k != "" {
				return k
			}
		}
	}
	return ""
}

// isDataURL reports whether s starts like an RFC 2397 data URL: "data:", a
// media type without spaces, then a comma.
func isDataURL(s string) bool {
	if len(s) < 5 || !strings.EqualFold(s[:5], "data:") {
		return false
	}
	head := s[5:min(len(s), 5+256)]
	i := strings.IndexByte(head, ',')
	return i >= 0 && !strings.ContainsAny(head[:i], " \t\r\n")
}

// looksBase64 reports whether s is made only of the base64 alphabets
// (standard and URL-safe) with padding and line breaks: prose always has
// spaces or punctuation outside it.
func looksBase64(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case c == '+', c == '/', c == '-', c == '_', c == '=', c == '\r', c == '\n':
		default:
			return false
		}
	}
	return true
}
