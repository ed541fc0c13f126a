package events

import (
	"bytes"
	"encoding/json"
)

// marshal encodes v as one line of compact JSON. HTML characters are left
// as they are: events are read by scripts, not embedded in web pages, and
// "<" is easier to grep for than "\u003c".
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), nil
}

// ParseArguments returns a tool call's argument text as it belongs in
// tool.call and confirm.request: the JSON itself when the text is valid JSON
// (kept byte for byte, so key order and number precision survive), else the
// raw text as a string.
func ParseArguments(raw string) any {
	if json.Valid([]byte(raw)) {
		return json.RawMessage(raw)
	}
	return raw
}

// The MarshalJSON methods below write list fields as [] rather than null,
// so a script can iterate over them without checking for null first.

// MarshalJSON writes Tools as [] when it is nil.
func (p RunStartedP) MarshalJSON() ([]byte, error) {
	type plain RunStartedP
	if p.Tools == nil {
		p.Tools = []string{}
	}
	return marshal(plain(p))
}

// MarshalJSON writes ToolCalls as [] when it is nil.
func (p MessageP) MarshalJSON() ([]byte, error) {
	type plain MessageP
	if p.ToolCalls == nil {
		p.ToolCalls = []ToolCallRef{}
	}
	return marshal(plain(p))
}

// MarshalJSON writes Added as [] when it is nil.
func (p ToolsVisibleP) MarshalJSON() ([]byte, error) {
	type plain ToolsVisibleP
	if p.Added == nil {
		p.Added = []string{}
	}
	return marshal(plain(p))
}

// MarshalJSON writes Todos as [] when it is nil.
func (p TodoUpdatedP) MarshalJSON() ([]byte, error) {
	type plain TodoUpdatedP
	if p.Todos == nil {
		p.Todos = []Todo{}
	}
	return marshal(plain(p))
}
