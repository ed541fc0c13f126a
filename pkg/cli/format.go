package cli

import (
	"fmt"
	"strings"
)

// Format is an output format chosen with -o/--output.
type Format string

// The output formats.
const (
	// FormatText is human text: tables on a terminal, tab-separated lines in a pipe.
	FormatText Format = "text"
	// FormatJSON is one JSON document.
	FormatJSON Format = "json"
	// FormatNDJSON is one JSON value per line.
	FormatNDJSON Format = "ndjson"
)

// Formats lists the valid formats in the order help text names them.
var Formats = []Format{FormatText, FormatJSON, FormatNDJSON}

// ParseFormat checks a -o value.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats {
		if string(f) == s {
			return f, nil
		}
	}
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = string(f)
	}
	return "", fmt.Errorf("invalid output format %q: use %s", s, strings.Join(names, ", "))
}

// ResolveFormat picks the output format: the -o flag when given, else text
// on a terminal stdout, else the command's pipe default (text when empty).
func ResolveFormat(flag string, ios *IOStreams, pipeDefault Format) (Format, error) {
	if flag != "" {
		return ParseFormat(flag)
	}
	if ios.IsStdoutTTY() || pipeDefault == "" {
		return FormatText, nil
	}
	return pipeDefault, nil
}
