package events

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaJSON is a copy of docs/events.schema.json; a test keeps them equal.
//
//go:embed events.schema.json
var schemaJSON []byte

// schemaURL is the schema's $id.
const schemaURL = "https://github.com/tavo-cli/tavo/blob/main/docs/events.schema.json"

// Schema returns the JSON Schema (draft 2020-12) of one event line, the
// content of docs/events.schema.json. The slice is the caller's to keep.
func Schema() []byte {
	return bytes.Clone(schemaJSON)
}

// compiled compiles the schema once per process; it never changes.
var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return nil, fmt.Errorf("parse the embedded event schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("load the embedded event schema: %w", err)
	}
	s, err := c.Compile(schemaURL)
	if err != nil {
		return nil, fmt.Errorf("compile the embedded event schema: %w", err)
	}
	return s, nil
})

// Validate checks one NDJSON line (with or without its "\n") against the
// event schema. The error is one line naming the instance path of each
// problem, e.g. `event does not match the schema: at '/payload/status': …`.
func Validate(line []byte) error {
	s, err := compiled()
	if err != nil {
		return err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(bytes.TrimSuffix(line, []byte{'\n'})))
	if err != nil {
		return fmt.Errorf("event is not one JSON value: %w", err)
	}
	err = s.Validate(doc)
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		return fmt.Errorf("event does not match the schema: %s", describe(ve))
	}
	return err
}

// describe flattens a validation error tree to its leaves, which name the
// actual problems; the inner nodes only say which keyword led there.
func describe(ve *jsonschema.ValidationError) string {
	var parts []string
	seen := map[string]bool{}
	var walk func(*jsonschema.ValidationError)
	walk = func(v *jsonschema.ValidationError) {
		if len(v.Causes) == 0 {
			// A leaf's Error is "at '/payload/status': value must be one of …".
			msg := v.Error()
			if !seen[msg] {
				seen[msg] = true
				parts = append(parts, msg)
			}
			return
		}
		for _, c := range v.Causes {
			walk(c)
		}
	}
	walk(ve)
	return strings.Join(parts, "; ")
}
