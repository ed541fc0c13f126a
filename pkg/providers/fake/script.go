package fake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// ReadScript reads a script: a JSON array of Reply objects. Unknown fields
// are errors, so a typo fails loudly instead of being ignored.
func ReadScript(r io.Reader) ([]Reply, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var replies []Reply
	if err := dec.Decode(&replies); err != nil {
		return nil, fmt.Errorf("fake: bad script: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("fake: bad script: text after the JSON array")
	}
	return replies, nil
}

// LoadScript reads a script file. Fixture paths are looked up next to the
// script first, then in the fixtures' scenarios folder; every fixture is
// read now, so a missing one is reported before the server starts.
func LoadScript(path string) ([]Reply, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("fake: %w", err)
	}
	replies, err := ReadScript(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for i := range replies {
		r := &replies[i]
		if r.Fixture == "" || r.Raw != "" {
			continue
		}
		name := r.Fixture
		if local := filepath.Join(filepath.Dir(path), name); !filepath.IsAbs(name) && fileExists(local) {
			name = local
		}
		raw, err := readFixture(name)
		if err != nil {
			return nil, fmt.Errorf("%s: reply %d: %w", path, i, err)
		}
		if _, err := ParseHTTP(raw); err != nil {
			return nil, fmt.Errorf("%s: reply %d: fixture %s: %w", path, i, r.Fixture, err)
		}
		r.Raw, r.Fixture = string(raw), ""
	}
	return replies, nil
}

func fileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}
