package cli

import (
	"encoding/json"
	"io"
)

// WriteJSON writes v as JSON followed by a newline, indented when pretty.
// HTML characters are left alone: the output is read by programs and people,
// never embedded in a page.
func WriteJSON(w io.Writer, v any, pretty bool) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if pretty {
		enc.SetIndent("", "  ")
	}
	return enc.Encode(v)
}
