package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
)

// tavo's JSON output has one key style: snake_case, lower-case ASCII
// letters and digits joined by single underscores, starting with a letter
// ("session_id", "http_status", "p95_ms"). docs/output.md is the rule;
// KeyStyleProblems is its check, run over every command's -o json by the
// tests in cmd.

// IsSnakeCase reports whether key is a snake_case JSON key.
func IsSnakeCase(key string) bool {
	if key == "" || key[0] < 'a' || key[0] > 'z' || key[len(key)-1] == '_' {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case c == '_' && key[i-1] != '_':
		default:
			return false
		}
	}
	return true
}

// KeyStyleProblems decodes doc (one JSON value) and returns, sorted, the
// path of every object key that is not snake_case, e.g. `.files[].mimeType`.
// data reports whether the key at a path is data rather than one of tavo's
// own fields (a variable's name) or holds data (a variable's value, a JSON
// Schema's properties): neither it nor anything under it is checked. data
// may be nil.
func KeyStyleProblems(doc []byte, data func(path string) bool) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	seen := map[string]bool{}
	walkKeys(v, "", data, seen)
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out, nil
}

// walkKeys collects bad keys under v, which sits at path. Array elements
// share one path ("[]"), so a bad key in a thousand rows is one problem.
func walkKeys(v any, path string, data func(string) bool, bad map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, child := range x {
			p := path + "." + k
			if data != nil && data(p) {
				continue
			}
			if !IsSnakeCase(k) {
				bad[p] = true
			}
			walkKeys(child, p, data, bad)
		}
	case []any:
		for _, child := range x {
			walkKeys(child, path+"[]", data, bad)
		}
	}
}
