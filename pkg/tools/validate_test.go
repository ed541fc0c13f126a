package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

// sinkSchema exercises every mapping Validate does.
const sinkSchema = `{
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1},
    "scope": {"type": "string", "enum": ["chat", "global"]},
    "limit": {"type": "integer", "minimum": 1, "maximum": 20},
    "max": {"type": "integer", "maximum": 20},
    "ratio": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
    "code": {"type": "string", "minLength": 2, "maxLength": 4},
    "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3, "uniqueItems": true},
    "nonEmpty": {"type": "array", "minItems": 1},
    "kind": {"const": "fixed"},
    "maybe": {"type": ["string", "null"]},
    "options": {
      "type": "object",
      "properties": {
        "referenceImages": {"type": "array", "items": {"type": "string", "pattern": "^img"}},
        "nested": {
          "type": "object",
          "properties": {"deep": {"type": "boolean"}, "mode": {"type": "string", "enum": ["a", "b"]}},
          "required": ["mode"]
        }
      },
      "additionalProperties": false
    },
    "opts": {
      "type": "array",
      "items": {
        "anyOf": [
          {"type": "string", "minLength": 1},
          {"$ref": "#/$defs/option"}
        ]
      }
    },
    "x-key": {"type": "string"},
    "a.b": {"type": "string"}
  },
  "required": ["name"],
  "additionalProperties": false,
  "$defs": {
    "option": {
      "type": "object",
      "properties": {"value": {"type": "string", "minLength": 1}, "label": {"type": "string", "minLength": 1}},
      "required": ["value", "label"],
      "additionalProperties": false
    }
  }
}`

func sinkCatalog(t testing.TB) *Catalog {
	t.Helper()
	sink := newTool("sink", nil)
	sink.spec.Parameters = json.RawMessage(sinkSchema)
	open := newTool("open", nil)
	return mustCatalog(t, sink, open)
}

func TestValidatePaths(t *testing.T) {
	c := sinkCatalog(t)
	tests := []struct {
		name     string
		args     string
		path     string
		expected string
		actual   string
	}{
		{"missing required", `{}`, "name", "string", "missing"},
		{"empty text is {}", ``, "name", "string", "missing"},
		{"wrong type", `{"name":5}`, "name", "string", "integer"},
		{"empty string", `{"name":""}`, "name", "non-empty string", "string"},
		{"enum", `{"name":"x","scope":"room"}`, "scope", "one of chat|global", "string"},
		{"range above", `{"name":"x","limit":25}`, "limit", "integer from 1 to 20", "integer"},
		{"range below", `{"name":"x","limit":0}`, "limit", "integer from 1 to 20", "integer"},
		{"fraction for integer", `{"name":"x","limit":1.5}`, "limit", "integer", "number"},
		{"only maximum", `{"name":"x","max":21}`, "max", "integer ≤ 20", "integer"},
		{"exclusive minimum", `{"name":"x","ratio":0}`, "ratio", "number > 0 and ≤ 1", "integer"},
		{"length range", `{"name":"x","code":"abcdef"}`, "code", "string of 2 to 4 characters", "string"},
		{"array item type", `{"name":"x","tags":["a",1]}`, "tags[1]", "string", "integer"},
		{"too many items", `{"name":"x","tags":["a","b","c","d"]}`, "tags", "array of at most 3 items", "array"},
		{"unique items", `{"name":"x","tags":["a","b","a"]}`, "tags[2]", "an item not repeated in the array (it equals tags[0])", "string"},
		{"min items", `{"name":"x","nonEmpty":[]}`, "nonEmpty", "non-empty array", "array"},
		{"const", `{"name":"x","kind":"other"}`, "kind", "exactly fixed", "string"},
		{"type list", `{"name":"x","maybe":3}`, "maybe", "string or null", "integer"},
		{"nested array", `{"name":"x","options":{"referenceImages":[5]}}`, "options.referenceImages[0]", "string", "integer"},
		{"nested pattern", `{"name":"x","options":{"referenceImages":["img1","pic"]}}`, "options.referenceImages[1]", "string matching the pattern ^img", "string"},
		{"nested unknown", `{"name":"x","options":{"bogus":1}}`, "options.bogus", "no additional properties", "integer"},
		{"nested required", `{"name":"x","options":{"nested":{"deep":true}}}`, "options.nested.mode", "one of a|b", "missing"},
		{"nested type", `{"name":"x","options":{"nested":{"mode":"a","deep":"yes"}}}`, "options.nested.deep", "boolean", "string"},
		{"unknown top-level", `{"name":"x","extra":[1]}`, "extra", "no additional properties", "array"},
		{"anyOf no type fits", `{"name":"x","opts":[5]}`, "opts[0]", "string or object", "integer"},
		{"anyOf blank string", `{"name":"x","opts":["ok",""]}`, "opts[1]", "non-empty string", "string"},
		{"anyOf object missing", `{"name":"x","opts":[{"value":"a"}]}`, "opts[0].label", "string", "missing"},
		{"anyOf object bad field", `{"name":"x","opts":["a",{"value":"a","label":""}]}`, "opts[1].label", "non-empty string", "string"},
		{"anyOf object unknown", `{"name":"x","opts":[{"value":"a","label":"b","zz":1}]}`, "opts[0].zz", "no additional properties", "integer"},
		{"hyphen key", `{"name":"x","x-key":1}`, "x-key", "string", "integer"},
		{"dotted key", `{"name":"x","a.b":1}`, `["a.b"]`, "string", "integer"},
		{"first by path", `{"name":5,"extra":1,"scope":"z"}`, "extra", "no additional properties", "integer"},
		{"array before object", `[1]`, "", "object", "array"},
		{"scalar", `"hi"`, "", "object", "string"},
		{"null", `null`, "", "object", "null"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for range 5 { // the validator iterates maps: the choice must not vary
				_, err := c.Validate("sink", []byte(tt.args))
				if err == nil {
					t.Fatalf("Validate(%s) passed", tt.args)
				}
				if err.Code != CodeInvalidArguments {
					t.Fatalf("code %q", err.Code)
				}
				got := [3]any{err.Details["path"], err.Details["expected"], err.Details["actualType"]}
				want := [3]any{tt.path, tt.expected, tt.actual}
				if got != want {
					t.Fatalf("Validate(%s) details = %q, want %q (message %q)", tt.args, got, want, err.Message)
				}
				if tt.path != "" && !strings.Contains(err.Message, tt.path) {
					t.Fatalf("message %q does not name the path %q", err.Message, tt.path)
				}
			}
		})
	}
}

func TestValidateMessages(t *testing.T) {
	c := sinkCatalog(t)
	tests := []struct{ args, want string }{
		{`{"name":"x","limit":25}`, "argument limit must be integer from 1 to 20, got integer 25."},
		{`{}`, "argument name is required (expected string)."},
		{`{"name":"x","options":{"bogus":1}}`, "argument options.bogus is not a known field; allowed fields here: nested, referenceImages."},
		{`{"name":"x","scope":"room"}`, `argument scope must be one of chat|global, got string "room".`},
		{`{"name":"x","opts":[5]}`, "argument opts[0] must be string or object, got integer 5."},
		{`[]`, "the arguments must be object, got array."},
		{`{"name":`, "arguments are not valid JSON"},
		{`{"name":"x"} {}`, "arguments are not valid JSON"},
	}
	for _, tt := range tests {
		_, err := c.Validate("sink", []byte(tt.args))
		if err == nil || err.Message != tt.want {
			t.Errorf("Validate(%s) = %v, want message %q", tt.args, err, tt.want)
		}
	}
}

func TestValidateAccepts(t *testing.T) {
	c := sinkCatalog(t)
	tests := []struct{ tool, args, want string }{
		{"open", ``, `{}`},
		{"open", "  \n\t ", `{}`},
		{"open", ` {"a": 1} `, `{"a": 1}`},
		{"sink", `{"name":"x","opts":["a",{"value":"b","label":"B"}],"options":{"nested":{"mode":"a"}}}`,
			`{"name":"x","opts":["a",{"value":"b","label":"B"}],"options":{"nested":{"mode":"a"}}}`},
	}
	for _, tt := range tests {
		got, err := c.Validate(tt.tool, []byte(tt.args))
		if err != nil {
			t.Fatalf("Validate(%s, %q): %v", tt.tool, tt.args, err)
		}
		if string(got) != tt.want {
			t.Errorf("Validate(%s, %q) = %s, want %s", tt.tool, tt.args, got, tt.want)
		}
	}
}

func TestValidateUnknownTool(t *testing.T) {
	_, err := sinkCatalog(t).Validate("nope", []byte(`{}`))
	if err == nil || err.Code != CodeUnknownTool {
		t.Fatalf("got %v", err)
	}
}

func FuzzValidate(f *testing.F) {
	for _, s := range []string{``, `{}`, `{"name":"x"}`, `[1]`, `{"opts":[5,{"value":1}]}`, `{"name":"x","tags":["a","a"]}`,
		`{"options":{"referenceImages":[{}],"nested":{}}}`, `{"limit":1e400}`, "{\"name\":\"\xff\"}", `nul`} {
		f.Add([]byte(s))
	}
	c := sinkCatalog(f)
	f.Fuzz(func(t *testing.T, args []byte) {
		got, err := c.Validate("sink", args)
		if err != nil {
			if err.Code != CodeInvalidArguments || err.Message == "" {
				t.Fatalf("bad error %#v", err)
			}
			if _, ok := err.Details["path"].(string); !ok {
				t.Fatalf("no path in %#v", err.Details)
			}
			return
		}
		var obj map[string]any
		if json.Unmarshal(got, &obj) != nil || obj == nil {
			t.Fatalf("accepted %q, which is not an object", got)
		}
	})
}
