package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadOutputSchemaResolvesRefsAgainstItsFile: a relative $ref in a
// --schema file is read from the schema's directory, wherever tavo runs.
func TestLoadOutputSchemaResolvesRefsAgainstItsFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "schemas")
	if err := os.MkdirAll(filepath.Join(dir, "common"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("answer.json", `{"type":"object","properties":{"n":{"$ref":"common/defs.json#/$defs/count"}},"required":["n"]}`)
	write("common/defs.json", `{"$defs":{"count":{"type":"integer","minimum":1}}}`)
	// The test runs in the package directory, which has no common/defs.json.
	s, err := LoadOutputSchema("answer", filepath.Join(dir, "answer.json"))
	if err != nil {
		t.Fatalf("LoadOutputSchema: %v", err)
	}
	if _, err := s.parse(`{"n":3}`); err != nil {
		t.Fatalf("valid answer refused: %v", err)
	}
	if _, err := s.parse(`{"n":0}`); err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Fatalf("the referenced minimum was not applied: %v", err)
	}
	if string(s.Wire.Schema) == "" || s.Wire.Name != "answer" {
		t.Fatalf("wire schema: %+v", s.Wire)
	}
	if _, err := LoadOutputSchema("x", filepath.Join(dir, "missing.json")); err == nil || !strings.Contains(err.Error(), "reading the schema") {
		t.Fatalf("missing file: %v", err)
	}
}
