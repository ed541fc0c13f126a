package tools

import (
	"bytes"
	"encoding/json"
)

// DecodeArgs reads a call's arguments into v, refusing fields v does not
// have. The catalog has already checked them against the tool's schema; the
// strict decode guards the same contract for callers that skip the catalog
// (tests, `tavo tools call` paths that bypass validation). A mismatch is an
// invalid_arguments error naming what the decoder found; a tool that wants
// its own wording replaces the message and keeps the code.
func DecodeArgs(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return &Error{Code: CodeInvalidArguments,
			Message: "the arguments do not match the tool's schema: " + err.Error()}
	}
	return nil
}
