package openai

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// Structured output (--schema) over Chat Completions is
// response_format {"type":"json_schema","json_schema":{name, schema, strict}}.
//
// strict is true when the schema fits OpenAI's strict subset (StrictSchema):
// the answer is then decoded under the schema. A schema outside the subset
// would be refused with strict on, so it is sent with strict false, which
// still steers the model; the runner validates the answer either way.

// DefaultSchemaName names a schema given without a name.
const DefaultSchemaName = "answer"

// responseFormat is the response_format value for s.
func responseFormat(s *providers.OutputSchema) (map[string]any, error) {
	if !json.Valid(s.Schema) {
		return nil, errors.New("the output schema is not valid JSON")
	}
	return map[string]any{
		"type": "json_schema",
		"json_schema": map[string]any{
			"name":   SchemaName(s.Name),
			"schema": json.RawMessage(s.Schema),
			"strict": StrictSchema(s.Schema),
		},
	}, nil
}

// SchemaName makes name fit OpenAI's ^[a-zA-Z0-9_-]{1,64}$, the pattern of a
// json_schema name on both Chat Completions and Responses.
func SchemaName(name string) string {
	var b strings.Builder
	for _, r := range name {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
		if b.Len() == 64 {
			break
		}
	}
	if b.Len() == 0 {
		return DefaultSchemaName
	}
	return b.String()
}

// strictKeywords are the JSON Schema keywords OpenAI's strict mode accepts.
var strictKeywords = map[string]bool{
	"type": true, "properties": true, "required": true, "additionalProperties": true, "items": true,
	"anyOf": true, "$ref": true, "$defs": true, "definitions": true, "enum": true, "const": true,
	"description": true, "title": true, "pattern": true, "format": true, "minimum": true, "maximum": true,
	"exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true, "minItems": true, "maxItems": true,
}

// StrictSchema reports whether schema fits OpenAI's strict structured-output
// subset: an object at the root, every object closed with
// additionalProperties false and listing all its properties in required,
// and no keyword outside the supported set.
func StrictSchema(schema []byte) bool {
	var root any
	if err := json.Unmarshal(schema, &root); err != nil {
		return false
	}
	m, ok := root.(map[string]any)
	if !ok || m["type"] != "object" {
		return false
	}
	return strictNode(m, 0)
}

func strictNode(v any, depth int) bool {
	if depth > 64 {
		return false
	}
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for k := range m {
		if !strictKeywords[k] {
			return false
		}
	}
	if props, isObject := m["properties"].(map[string]any); isObject || m["type"] == "object" {
		if ap, ok := m["additionalProperties"].(bool); !ok || ap {
			return false
		}
		required := map[string]bool{}
		if list, ok := m["required"].([]any); ok {
			for _, r := range list {
				if s, ok := r.(string); ok {
					required[s] = true
				}
			}
		}
		for name, p := range props {
			if !required[name] || !strictNode(p, depth+1) {
				return false
			}
		}
	}
	if items, ok := m["items"]; ok && !strictNode(items, depth+1) {
		return false
	}
	for _, key := range []string{"$defs", "definitions"} {
		defs, _ := m[key].(map[string]any)
		for _, d := range defs {
			if !strictNode(d, depth+1) {
				return false
			}
		}
	}
	if branches, ok := m["anyOf"].([]any); ok {
		for _, b := range branches {
			if !strictNode(b, depth+1) {
				return false
			}
		}
	}
	return true
}

// ClassifyHTTP maps a non-2xx answer of an OpenAI API to an error code and
// the API's own message. The Responses codec shares it: both APIs answer
// with the same error envelope.
func ClassifyHTTP(f *providers.HTTPFailure, hadTools bool) *providers.Error {
	return classifyHTTP(f, hadTools)
}

// ClassifyEnvelope classifies an error object ({"message","type","code"})
// sent inside a 200 answer or a stream, where no HTTP status says more.
func ClassifyEnvelope(message, typ, code string, hadTools bool) *providers.Error {
	env := envelope{message: providers.CleanMessage(message), typ: typ, code: code}
	if env.message == "" {
		env.message = providers.CleanMessage(typ)
		if env.message == "" {
			env.message = providers.CleanMessage(code)
		}
	}
	if env.message == "" {
		env.message = "the provider reported an error without a message"
	}
	return classify(0, env, hadTools)
}
