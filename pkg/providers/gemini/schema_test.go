package gemini

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers/fake"
	"github.com/tavo-cli/tavo/pkg/tools"
	"github.com/tavo-cli/tavo/pkg/tools/askuser"
	"github.com/tavo-cli/tavo/pkg/tools/webfetch"
	"github.com/tavo-cli/tavo/pkg/tools/websearch"
)

// schemaFields are the fields of Gemini's Schema message (the discovery
// document's; TestSchemaFieldsMatchSpec keeps the list honest).
var schemaFields = []string{
	"anyOf", "default", "description", "enum", "example", "format", "items", "maxItems", "maxLength",
	"maxProperties", "maximum", "minItems", "minLength", "minProperties", "minimum", "nullable", "pattern",
	"properties", "propertyOrdering", "required", "title", "type",
}

func TestSchemaFieldsMatchSpec(t *testing.T) {
	dir, err := fake.FixturesDir()
	if err != nil {
		t.Skip(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "specs", "gemini.trimmed.json"))
	if err != nil {
		t.Fatal(err)
	}
	var spec struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]any `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(raw, &spec); err != nil {
		t.Fatal(err)
	}
	var got []string
	for k := range spec.Components.Schemas["Schema"].Properties {
		got = append(got, k)
	}
	sort.Strings(got)
	if !reflect.DeepEqual(got, schemaFields) {
		t.Fatalf("Schema fields in the spec %v, list here %v", got, schemaFields)
	}
}

// checkGeminiSubset fails when s uses anything Gemini's Schema lacks, or an
// OBJECT without properties or an ARRAY without items, which Gemini rejects.
func checkGeminiSubset(t *testing.T, path string, s map[string]any) {
	t.Helper()
	allowed := map[string]bool{}
	for _, f := range schemaFields {
		allowed[f] = true
	}
	for k := range s {
		if !allowed[k] {
			t.Errorf("%s: field %q is not in Gemini's Schema", path, k)
		}
	}
	switch s["type"] {
	case "OBJECT":
		props, _ := s["properties"].(map[string]any)
		if len(props) == 0 {
			t.Errorf("%s: OBJECT without properties", path)
		}
		for name, p := range props {
			checkGeminiSubset(t, path+"."+name, p.(map[string]any))
		}
	case "ARRAY":
		items, ok := s["items"].(map[string]any)
		if !ok {
			t.Errorf("%s: ARRAY without items", path)
		} else {
			checkGeminiSubset(t, path+"[]", items)
		}
	case nil:
		if _, ok := s["anyOf"]; !ok {
			t.Errorf("%s: no type and no anyOf", path)
		}
	case "STRING", "NUMBER", "INTEGER", "BOOLEAN":
	default:
		t.Errorf("%s: type %v", path, s["type"])
	}
	for k := range s {
		if k == "minLength" || k == "maxLength" || k == "minItems" || k == "maxItems" {
			if _, ok := s[k].(string); !ok {
				t.Errorf("%s: %s is not an int64 string", path, k)
			}
		}
	}
	if branches, ok := s["anyOf"].([]any); ok {
		for _, b := range branches {
			checkGeminiSubset(t, path+"|", b.(map[string]any))
		}
	}
}

func translate(t *testing.T, schema string) map[string]any {
	t.Helper()
	out, err := toGeminiSchema([]byte(schema))
	if err != nil {
		t.Fatal(err)
	}
	if out != nil {
		checkGeminiSubset(t, "$", out)
	}
	return out
}

func asJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestTranslateRealToolSchemas(t *testing.T) {
	for _, tt := range []struct {
		name   string
		schema json.RawMessage
		want   string
	}{
		{"tool search", tools.NewToolSearch().Spec().Parameters,
			`{"properties":{"limit":{"default":5,"description":"Most tools to load.","maximum":20,"minimum":1,"type":"INTEGER"},` +
				`"query":{"description":"The capability, e.g. \"list saved files\".","minLength":"1","type":"STRING"}},"required":["query"],"type":"OBJECT"}`},
		{"ask user", askuser.New().Spec().Parameters, ""},
		{"web search", json.RawMessage(websearch.Schema), ""},
		{"web fetch: the free-form headers map is left out", json.RawMessage(webfetch.Schema),
			`{"properties":{"cursor":{"description":"next_cursor of an earlier call; wins over url.","minLength":"1","type":"STRING"},` +
				`"prompt":{"description":"A question about the page.","maxLength":"4000","minLength":"1","type":"STRING"},` +
				`"url":{"description":"The http(s) URL to read.","maxLength":"2000","minLength":"1","type":"STRING"}},"type":"OBJECT"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := translate(t, string(tt.schema))
			if out == nil {
				t.Fatal("nothing translated")
			}
			if tt.want != "" && asJSON(t, out) != tt.want {
				t.Fatalf("got  %s\nwant %s", asJSON(t, out), tt.want)
			}
		})
	}
	ask := translate(t, string(askuser.New().Spec().Parameters))
	options := ask["properties"].(map[string]any)["options"].(map[string]any)["items"].(map[string]any)["anyOf"].([]any)
	if len(options) != 2 || options[0].(map[string]any)["type"] != "STRING" || options[1].(map[string]any)["type"] != "OBJECT" {
		t.Fatalf("options items %s", asJSON(t, options))
	}
	if asJSON(t, options[1].(map[string]any)["required"]) != `["value","label"]` {
		t.Fatalf("option object %s", asJSON(t, options[1]))
	}
}

func TestTranslateHostileSchema(t *testing.T) {
	schema := `{
	  "$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "urn:x", "type": "object",
	  "$defs": {"point": {"type": "object", "properties": {"x": {"type": "number", "exclusiveMinimum": 0, "multipleOf": 2}}, "required": ["x"], "additionalProperties": false}},
	  "properties": {
	    "p": {"$ref": "#/$defs/point", "description": "where"},
	    "tag": {"const": "a"},
	    "n": {"type": ["integer", "null"], "maximum": 9},
	    "any": {},
	    "map": {"type": "object", "additionalProperties": true, "propertyNames": {"pattern": "^a"}},
	    "multi": {"type": ["string", "number"], "description": "either"},
	    "choice": {"oneOf": [{"type": "string"}, {"type": "null"}]},
	    "level": {"enum": [1, 2, 3]},
	    "flag": {"type": "boolean", "const": true},
	    "when": {"type": "string", "format": "date-time"},
	    "site": {"type": "string", "format": "uri", "examples": ["https://a.example"]},
	    "list": {"type": "array"},
	    "both": {"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}, {"properties": {"b": {"type": "integer"}}}]},
	    "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "minItems": 1}
	  },
	  "required": ["p", "any", "map", "tags"],
	  "additionalProperties": false, "not": {"required": ["zzz"]}, "if": {}, "then": {}
	}`
	out := translate(t, schema)
	props := out["properties"].(map[string]any)
	for name, want := range map[string]string{
		"p":      `{"description":"where","properties":{"x":{"minimum":0,"type":"NUMBER"}},"required":["x"],"type":"OBJECT"}`,
		"tag":    `{"enum":["a"],"type":"STRING"}`,
		"n":      `{"maximum":9,"nullable":true,"type":"INTEGER"}`,
		"multi":  `{"anyOf":[{"type":"NUMBER"},{"type":"STRING"}],"description":"either"}`,
		"choice": `{"nullable":true,"type":"STRING"}`,
		"level":  `{"description":"One of: 1, 2, 3.","type":"INTEGER"}`,
		"flag":   `{"description":"One of: true.","type":"BOOLEAN"}`,
		"when":   `{"format":"date-time","type":"STRING"}`,
		"site":   `{"example":"https://a.example","type":"STRING"}`,
		"both":   `{"properties":{"a":{"type":"STRING"},"b":{"type":"INTEGER"}},"required":["a"],"type":"OBJECT"}`,
		"tags":   `{"items":{"type":"STRING"},"minItems":"1","type":"ARRAY"}`,
	} {
		if got := asJSON(t, props[name]); got != want {
			t.Errorf("%s: got  %s\nwant %s", name, got, want)
		}
	}
	for _, gone := range []string{"any", "map", "list"} {
		if _, ok := props[gone]; ok {
			t.Errorf("%s kept: %s", gone, asJSON(t, props[gone]))
		}
	}
	if asJSON(t, out["required"]) != `["p","tags"]` {
		t.Errorf("required %s", asJSON(t, out["required"]))
	}
}

func TestTranslateEdgeCases(t *testing.T) {
	for name, schema := range map[string]string{
		"empty":                `{"type":"object","properties":{}}`,
		"no schema":            ``,
		"free-form root":       `{"type":"object","additionalProperties":true}`,
		"unresolvable $ref":    `{"$ref":"#/nowhere"}`,
		"remote $ref":          `{"$ref":"https://example.com/s.json"}`,
		"only untyped members": `{"type":"object","properties":{"a":{},"b":true}}`,
	} {
		if out := translate(t, schema); out != nil {
			t.Errorf("%s: %s, want nothing (parameters left out)", name, asJSON(t, out))
		}
	}
	if _, err := toGeminiSchema([]byte(`{`)); err == nil {
		t.Error("broken JSON accepted")
	}
}

func TestTranslateRecursiveSchemasEnd(t *testing.T) {
	// A tree refers to itself; it is inlined a few levels deep, then cut.
	tree := translate(t, `{"type":"object","properties":{"name":{"type":"string"},"child":{"$ref":"#"}}}`)
	depth := 0
	for node := tree; node != nil; depth++ {
		child, _ := node["properties"].(map[string]any)["child"].(map[string]any)
		node = child
	}
	if depth < 2 || depth > maxRefDepth+1 {
		t.Fatalf("tree inlined %d levels", depth)
	}
	// Three self-references per level would grow as 3^depth; the node
	// budget stops it.
	wide := `{"$defs":{"n":{"type":"object","properties":{"a":{"$ref":"#/$defs/n"},"b":{"$ref":"#/$defs/n"},"c":{"$ref":"#/$defs/n"},"v":{"type":"string"}}}},"$ref":"#/$defs/n"}`
	out := translate(t, wide)
	if b, _ := json.Marshal(out); len(b) > 2<<20 {
		t.Fatalf("translation of %d bytes", len(b))
	}
}
