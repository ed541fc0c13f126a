package runner

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFiles writes name → text under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The schema sent to the provider holds the referenced files, with every
// reference a pointer into itself, and it alone validates like the files.
func TestLoadOutputSchemaBundlesReferencedFiles(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"answer.json": `{"type":"object","properties":{
			"name":{"$ref":"common/defs.json#/$defs/name"},
			"home":{"$ref":"common/place.json"},
			"tags":{"type":"array","items":{"$ref":"#/$defs/tag"}}},
			"required":["name","home"],"additionalProperties":false,
			"$defs":{"tag":{"type":"string","enum":[{"$ref":"not a reference"}]}}}`,
		"common/defs.json": `{"$id":"https://example.com/defs.json","$defs":{"name":{"type":"string","minLength":2},"city":{"$ref":"#/$defs/name"}}}`,
		// A file that refers to a file beside it and to itself (a cycle).
		"common/place.json": `{"type":"object","properties":{"city":{"$ref":"defs.json#/$defs/city"},"near":{"$ref":"#"}},"required":["city"]}`,
	})
	s, err := LoadOutputSchema("answer", filepath.Join(dir, "answer.json"))
	if err != nil {
		t.Fatalf("LoadOutputSchema: %v", err)
	}
	wire := string(s.Wire.Schema)
	if strings.Contains(wire, ".json") || strings.Contains(wire, "example.com") {
		t.Fatalf("the sent schema still refers to files: %s", wire)
	}
	var doc map[string]any
	if err := json.Unmarshal(s.Wire.Schema, &doc); err != nil {
		t.Fatal(err)
	}
	props := doc["properties"].(map[string]any)
	defs := doc["$defs"].(map[string]any)
	if got := props["name"].(map[string]any)["$ref"]; got != "#/$defs/defs/$defs/name" {
		t.Errorf("name ref %v", got)
	}
	if got := props["home"].(map[string]any)["$ref"]; got != "#/$defs/place" {
		t.Errorf("home ref %v", got)
	}
	place := defs["place"].(map[string]any)["properties"].(map[string]any)
	if got := place["near"].(map[string]any)["$ref"]; got != "#/$defs/place" {
		t.Errorf("a file's own # ref became %v", got)
	}
	if got := place["city"].(map[string]any)["$ref"]; got != "#/$defs/defs/$defs/city" {
		t.Errorf("a sibling file's ref became %v", got)
	}
	if got := defs["defs"].(map[string]any)["$defs"].(map[string]any)["city"].(map[string]any)["$ref"]; got != "#/$defs/defs/$defs/name" {
		t.Errorf("a local ref inside a bundled file became %v", got)
	}
	if _, ok := defs["defs"].(map[string]any)["$id"]; ok {
		t.Error("a bundled file kept its $id")
	}
	if !strings.Contains(wire, `{"$ref":"not a reference"}`) {
		t.Errorf("a $ref inside enum (data) was rewritten: %s", wire)
	}
	// The bundle validates on its own: compile it with no files around.
	alone, err := CompileOutputSchema("answer", s.Wire.Schema)
	if err != nil {
		t.Fatalf("the bundle does not compile on its own: %v", err)
	}
	for _, o := range []*OutputSchema{s, alone} {
		if _, err := o.parse(`{"name":"Rob","home":{"city":"Sydney","near":{"city":"Bondi"}}}`); err != nil {
			t.Errorf("valid answer refused: %v", err)
		}
		if _, err := o.parse(`{"name":"Rob","home":{"city":"X"}}`); err == nil {
			t.Error("the referenced minLength (two files away) was not applied")
		}
	}
}

func TestBundleSchemaLeavesSelfContainedSchemasAlone(t *testing.T) {
	doc := []byte(`{"type":"object",  "properties":{"n":{"$ref":"#/$defs/n"}},"$defs":{"n":{"type":"number","maximum":1e400}}}`)
	out, err := BundleSchema(filepath.Join(t.TempDir(), "x.json"), doc)
	if err != nil || string(out) != string(doc) {
		t.Fatalf("got %s, %v; want the document unchanged", out, err)
	}
}

func TestBundleSchemaRefusals(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"remote.json":  `{"properties":{"a":{"$ref":"https://example.com/s.json#/$defs/a"}}}`,
		"anchor.json":  `{"properties":{"a":{"$ref":"defs.json#item"}}}`,
		"defs.json":    `{"$defs":{"item":{"$anchor":"item","type":"string"}}}`,
		"missing.json": `{"properties":{"a":{"$ref":"sub/nope.json"}}}`,
		"notjson.json": `{"properties":{"a":{"$ref":"bad.txt"}}}`,
		"bad.txt":      `not json`,
		"draft7.json":  `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{"$ref":"defs.json#/$defs/item"}}}`,
	})
	for file, want := range map[string]string{
		"remote.json":  `"https://example.com/s.json#/$defs/a" in remote.json points at a remote document`,
		"anchor.json":  `"defs.json#item" in anchor.json uses a plain-name fragment`,
		"missing.json": `"sub/nope.json" in missing.json: open `,
		"notjson.json": `bad.txt is not JSON`,
	} {
		_, err := LoadOutputSchema("x", filepath.Join(dir, file))
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line with %q", file, err, want)
		}
	}
	// Drafts before 2019-09 get the files under "definitions".
	s, err := LoadOutputSchema("x", filepath.Join(dir, "draft7.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(s.Wire.Schema), `"definitions":{"defs":`) || !strings.Contains(string(s.Wire.Schema), `"#/definitions/defs/$defs/item"`) {
		t.Fatalf("draft-07 bundle: %s", s.Wire.Schema)
	}
}
