package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The rules of memory and variables (SPEC §5) live here, beside the data
// they guard: the store enforces them in the same transaction as the write,
// so no caller (the model's tools, `tavo memory`, `tavo var`, `tavo run
// --var`) can skip them and concurrent writers cannot race past a limit.
// They are exported as well, so a caller can refuse bad input before it
// opens the store, with the same words.

// Memory limits. Memory is injected into the system prompt of every run
// while it is enabled, so it is kept small: the whole of it fits in one tool
// result (64 KiB) and costs at most a few thousand tokens a request.
const (
	// MaxMemoryItems is the most notes memory holds.
	MaxMemoryItems = 200
	// MaxMemoryItemChars is the longest note, in characters (runes).
	MaxMemoryItemChars = 2000
	// MaxMemoryBytes is the most text all notes hold together, in UTF-8
	// bytes.
	MaxMemoryBytes = 32 << 10
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

// LimitError is a write refused because it would take memory or a
// variable past a limit. Its message says which and what to do, in words a
// person or a model can act on. It wraps ErrInvalid.
type LimitError struct {
	// Limit is the limit that would be exceeded and Actual what the write
	// would have made it, both counted in Unit: "items" (memory notes) or
	// "bytes" (all memory text, or one variable's value as compact JSON).
	Limit, Actual int
	Unit          string
	msg           string
}

func (e *LimitError) Error() string { return e.msg }

// Unwrap makes a LimitError an ErrInvalid.
func (e *LimitError) Unwrap() error { return ErrInvalid }

// ItemError is a memory note refused: blank, not UTF-8, or longer than
// MaxMemoryItemChars. It wraps ErrInvalid.
type ItemError struct {
	// Index is the note, counted from 0 in the list given (the message
	// counts from 1).
	Index int
	// Limit is MaxMemoryItemChars when the note is too long, else 0.
	Limit int
	msg   string
}

func (e *ItemError) Error() string { return e.msg }

// Unwrap makes an ItemError an ErrInvalid.
func (e *ItemError) Unwrap() error { return ErrInvalid }

// ruleError is a refused argument whose message is for people as it is;
// it wraps a sentinel (ErrInvalid or ErrInvalidName).
type ruleError struct {
	msg  string
	kind error
}

func (e *ruleError) Error() string { return e.msg }
func (e *ruleError) Unwrap() error { return e.kind }

// CleanMemoryItems trims every item and checks it: non-blank, valid UTF-8,
// at most MaxMemoryItemChars characters. It returns the trimmed items or an
// *ItemError naming the first bad one.
func CleanMemoryItems(items []string) ([]string, error) {
	out := make([]string, len(items))
	for i, it := range items {
		it = strings.TrimSpace(it)
		switch {
		case !utf8.ValidString(it):
			return nil, &ItemError{Index: i, msg: fmt.Sprintf("memory item %d is not valid UTF-8 text", i+1)}
		case it == "":
			return nil, &ItemError{Index: i, msg: fmt.Sprintf("memory item %d is empty; every note needs some text", i+1)}
		}
		if n := utf8.RuneCountInString(it); n > MaxMemoryItemChars {
			return nil, &ItemError{Index: i, Limit: MaxMemoryItemChars,
				msg: fmt.Sprintf("memory item %d is %d characters long; a note holds at most %d", i+1, n, MaxMemoryItemChars)}
		}
		out[i] = it
	}
	return out, nil
}

// CheckMemorySize checks the notes a write would leave: at most
// MaxMemoryItems of them and MaxMemoryBytes of text, else a *LimitError.
func CheckMemorySize(items []string) error {
	total := 0
	for _, it := range items {
		total += len(it)
	}
	return checkMemoryTotals(len(items), total)
}

// checkMemoryTotals is CheckMemorySize for a memory of count notes holding
// total bytes of text: what a write of one item checks without the list.
func checkMemoryTotals(count, total int) error {
	if count > MaxMemoryItems {
		return &LimitError{Limit: MaxMemoryItems, Actual: count, Unit: "items",
			msg: fmt.Sprintf("memory would hold %d notes; it holds at most %d, so merge or remove some first", count, MaxMemoryItems)}
	}
	if total > MaxMemoryBytes {
		return &LimitError{Limit: MaxMemoryBytes, Actual: total, Unit: "bytes",
			msg: fmt.Sprintf("memory would hold %d bytes of text; it holds at most %d (32 KiB), so shorten, merge or remove notes first", total, MaxMemoryBytes)}
	}
	return nil
}

// CheckVarName checks a variable name: a dotted path of one or more
// segments, each made of Unicode letters and digits, '_' or '-', joined by
// single dots, at most MaxVarNameLen bytes ("user.prefs.theme",
// "last-run_id", "用户.主题"). Marks, spaces, punctuation and symbols are
// refused, with the character named.
// Each name is its own variable: the dots group names for people and for
// prefix listings, they do not nest values. A bad name is ErrInvalidName.
func CheckVarName(name string) error {
	bad := func(format string, args ...any) error {
		return &ruleError{msg: fmt.Sprintf(format, args...), kind: ErrInvalidName}
	}
	switch {
	case name == "":
		return bad("a variable name cannot be empty")
	case len(name) > MaxVarNameLen:
		return bad("variable name %.40q… is %d bytes long; the most is %d", name, len(name), MaxVarNameLen)
	case !utf8.ValidString(name):
		return bad("variable name %q is not valid UTF-8", name)
	}
	for _, r := range name {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' || r == '.') {
			return bad("invalid variable name %q: %q is not allowed (use letters, digits, '_' or '-' in dot-separated segments)", name, r)
		}
	}
	for i, seg := range strings.Split(name, ".") {
		if seg == "" {
			return bad("invalid variable name %q: segment %d is empty (no leading, trailing or double dots)", name, i+1)
		}
	}
	return nil
}

// PrepareValue checks a JSON value to be saved and returns it compacted,
// the form it is stored in. It fails with ErrInvalid when raw is not one
// JSON value, and with a *LimitError when the compact form exceeds
// MaxValueBytes. warning is non-empty when the value is saved but belongs
// in a file: larger than WarnValueBytes, or holding a string of more than
// WarnBlobBytes that is a data: URL or looks like base64 (images, audio and
// other binary data).
func PrepareValue(raw []byte) (compact []byte, warning string, err error) {
	compact, err = compactValue(raw)
	if err != nil {
		return nil, "", err
	}
	return compact, valueWarning(compact), nil
}

// compactValue is PrepareValue without the warning: the rule SetVar
// enforces.
func compactValue(raw []byte) ([]byte, error) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil || buf.Len() == 0 {
		return nil, &ruleError{msg: "the value is not valid JSON", kind: ErrInvalid}
	}
	if buf.Len() > MaxValueBytes {
		return nil, &LimitError{Limit: MaxValueBytes, Actual: buf.Len(), Unit: "bytes",
			msg: fmt.Sprintf("the value is %d bytes as JSON; a variable holds at most %d (1 MiB): save large content as a file and keep its path in the variable",
				buf.Len(), MaxValueBytes)}
	}
	return buf.Bytes(), nil
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

// Refusal returns the broken memory or variable rule that err carries (an
// *ItemError, a *LimitError, a bad variable name or value) so a caller can
// show its own message without the store's context around it; nil when err
// is something else.
func Refusal(err error) error {
	var ie *ItemError
	var le *LimitError
	var re *ruleError
	switch {
	case errors.As(err, &ie):
		return ie
	case errors.As(err, &le):
		return le
	case errors.As(err, &re):
		return re
	}
	return nil
}
