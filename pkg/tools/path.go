package tools

import (
	"encoding/json"
	"math/big"
	"strconv"
	"strings"
)

// JoinPath writes an argument path the way tavo reports it to the model:
// object keys joined with dots, array indexes in brackets, for example
// JoinPath("options", 2, "value") is "options[2].value". Keys that are not
// plain identifiers are written as quoted brackets (`headers["X-Key"]`). The
// empty path ("") stands for the whole arguments object.
func JoinPath(segments ...any) string {
	var b strings.Builder
	for _, s := range segments {
		switch s := s.(type) {
		case int:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s))
			b.WriteByte(']')
		case string:
			appendKey(&b, s)
		}
	}
	return b.String()
}

// appendKey appends one object key to a path.
func appendKey(b *strings.Builder, key string) {
	if isIdentifier(key) {
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(key)
		return
	}
	q, _ := json.Marshal(key)
	b.WriteByte('[')
	b.Write(q)
	b.WriteByte(']')
}

// isIdentifier reports whether key can be written after a dot unambiguously.
func isIdentifier(key string) bool {
	if key == "" {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c == '_' || c == '$' || c == '-' && i > 0:
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// JSONType names the JSON type of a decoded value as tavo reports it in
// actualType: object, array, string, integer, number, boolean or null.
// Numbers without a fractional part are "integer".
func JSONType(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "boolean"
	case json.Number:
		if isIntegral(string(v)) {
			return "integer"
		}
		return "number"
	case float64:
		if v == float64(int64(v)) {
			return "integer"
		}
		return "number"
	case int, int64, int32:
		return "integer"
	default:
		return "unknown"
	}
}

// isIntegral reports whether a JSON number literal has an integer value,
// including forms such as 1.0 and 2e3, the way the schema validator decides.
func isIntegral(lit string) bool {
	r, ok := new(big.Rat).SetString(lit)
	return ok && r.IsInt()
}

// InvalidArgument builds the invalid_arguments error of SPEC §4 for one
// argument: path as JoinPath writes it, expected a short phrase ("string",
// "one of chat|global", "integer ≤ 20"), actualType the JSON type found or
// "missing". Tools use it for the checks a schema cannot express so that
// every argument error reads the same.
func InvalidArgument(path, expected, actualType string) *Error {
	return &Error{
		Code:    CodeInvalidArguments,
		Message: argumentMessage(path, expected, actualType, ""),
		Details: map[string]any{"path": path, "expected": expected, "actualType": actualType},
	}
}

// argumentMessage is the one-sentence message of an argument error. shown is
// a short rendering of the offending value, empty when not worth showing.
func argumentMessage(path, expected, actualType, shown string) string {
	subject := "argument " + path
	if path == "" {
		subject = "the arguments"
	}
	if actualType == "missing" {
		return subject + " is required (expected " + expected + ")."
	}
	got := actualType
	if shown != "" {
		got += " " + shown
	}
	return subject + " must be " + expected + ", got " + got + "."
}
