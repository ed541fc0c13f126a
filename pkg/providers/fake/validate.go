package fake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// schemaRef names a component schema of a trimmed official spec.
type schemaRef struct {
	file, component string
}

// requestSchemas maps each protocol to the official schema of its request
// body, in specs/ of the provider fixtures.
var requestSchemas = map[providers.Protocol]schemaRef{
	providers.ProtocolOpenAI:          {"openai.trimmed.json", "CreateChatCompletionRequest"},
	providers.ProtocolOpenAIResponses: {"openai.trimmed.json", "CreateResponse"},
	providers.ProtocolAnthropic:       {"anthropic.trimmed.json", "CreateMessageParams"},
	providers.ProtocolGemini:          {"gemini.trimmed.json", "GenerateContentRequest"},
}

// ValidateRequest checks a request body against the official request schema
// of protocol (OpenAI's CreateChatCompletionRequest for "openai"). It returns
// ErrNoFixtures (wrapped) when the specs cannot be found.
func ValidateRequest(protocol providers.Protocol, body []byte) error {
	sch, err := compileRequestSchema(protocol)
	if err != nil {
		return err
	}
	return validateWith(sch, body)
}

// Validator checks request bodies like ValidateRequest, compiling each
// protocol's schema once: compiling the OpenAI spec takes tens of
// milliseconds, validating a body microseconds. It is safe for concurrent
// use.
type Validator struct {
	mu      sync.Mutex
	schemas map[providers.Protocol]*jsonschema.Schema
}

// Validate checks body against the official request schema of protocol.
func (v *Validator) Validate(protocol providers.Protocol, body []byte) error {
	v.mu.Lock()
	sch := v.schemas[protocol]
	v.mu.Unlock()
	if sch == nil {
		var err error
		if sch, err = compileRequestSchema(protocol); err != nil {
			return err
		}
		v.mu.Lock()
		if v.schemas == nil {
			v.schemas = map[providers.Protocol]*jsonschema.Schema{}
		}
		v.schemas[protocol] = sch
		v.mu.Unlock()
	}
	return validateWith(sch, body)
}

func validateWith(sch *jsonschema.Schema, body []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("request body is not JSON: %w", err)
	}
	if err := sch.Validate(inst); err != nil {
		return fmt.Errorf("request body does not match the official schema: %w", err)
	}
	return nil
}

func compileRequestSchema(protocol providers.Protocol) (*jsonschema.Schema, error) {
	sch, _, err := compileRequest(protocol)
	return sch, err
}

// compiledRequest is one protocol's compiled request schema and the
// top-level fields it names; both are read-only once made.
type compiledRequest struct {
	schema *jsonschema.Schema
	fields map[string]bool
}

// requestCache compiles each protocol's request schema once per process:
// compiling the OpenAI spec takes tens of milliseconds, and every fake
// server of every test needs it. Compiled schemas are safe to share.
var requestCache = func() map[providers.Protocol]func() (compiledRequest, error) {
	m := map[providers.Protocol]func() (compiledRequest, error){}
	for p, ref := range requestSchemas {
		m[p] = sync.OnceValues(func() (compiledRequest, error) {
			sch, fields, err := compileComponent(ref)
			return compiledRequest{sch, fields}, err
		})
	}
	return m
}()

// compileRequest returns protocol's request schema and the top-level
// fields it names.
func compileRequest(protocol providers.Protocol) (*jsonschema.Schema, map[string]bool, error) {
	get, ok := requestCache[protocol]
	if !ok {
		return nil, nil, fmt.Errorf("no request schema known for protocol %q", protocol)
	}
	c, err := get()
	return c.schema, c.fields, err
}

// compileComponent compiles one component schema of an OpenAPI document.
// OpenAPI 3.1 schemas are JSON Schema 2020-12, except that the trimmed specs
// still carry 3.0's "nullable" (and Gemini's is 3.0), which is rewritten
// into 2020-12 first, and is made as strict about unknown fields as the API
// (strictSchema). It also returns the top-level field names.
func compileComponent(ref schemaRef) (*jsonschema.Schema, map[string]bool, error) {
	dir, err := FixturesDir()
	if err != nil {
		return nil, nil, err
	}
	path := filepath.Join(dir, "specs", ref.file)
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot open spec: %w", err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		return nil, nil, fmt.Errorf("spec %s is not JSON: %w", ref.file, err)
	}
	doc = fromOpenAPI(doc)
	strictSchema(ref, doc)
	fields := map[string]bool{}
	if root, ok := doc.(map[string]any); ok {
		if top := resolvePointer(root, "#/components/schemas/"+ref.component); top != nil {
			topLevelFields(root, top, fields, 0)
		}
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	url := "file:///specs/" + ref.file
	if err := c.AddResource(url, doc); err != nil {
		return nil, nil, fmt.Errorf("cannot load spec %s: %w", ref.file, err)
	}
	sch, err := c.Compile(url + "#/components/schemas/" + ref.component)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot compile %s from %s: %w", ref.component, ref.file, err)
	}
	return sch, fields, nil
}

// fromOpenAPI rewrites schema keywords the 2020-12 validator does not take:
// OpenAPI 3.0's "nullable": true adds null to the type (or wraps the schema
// in anyOf), boolean exclusiveMinimum/exclusiveMaximum become numbers, and
// draft 2019-09's $recursiveAnchor/$recursiveRef (OpenAI's CompoundFilter)
// become a plain $ref to the anchoring schema. "oneOf" becomes "anyOf": the
// specs write unions whose branches overlap as oneOf (a Responses user
// message with content parts matches both the easy-input and the item
// message branch), and the APIs accept a value that matches several.
func fromOpenAPI(v any) any {
	return rewrite(v, "", "")
}

// rewrite does fromOpenAPI's work; ptr is v's JSON pointer in the document
// and anchor the pointer of the nearest enclosing $recursiveAnchor.
func rewrite(v any, ptr, anchor string) any {
	switch v := v.(type) {
	case []any:
		for i := range v {
			v[i] = rewrite(v[i], fmt.Sprintf("%s/%d", ptr, i), anchor)
		}
		return v
	case map[string]any:
		if a, ok := v["$recursiveAnchor"].(bool); ok {
			delete(v, "$recursiveAnchor")
			if a {
				anchor = ptr
			}
		}
		if one, ok := v["oneOf"]; ok {
			if _, both := v["anyOf"]; !both {
				delete(v, "oneOf")
				v["anyOf"] = one
			}
		}
		if ref, ok := v["$recursiveRef"].(string); ok && ref == "#" {
			delete(v, "$recursiveRef")
			v["$ref"] = "#" + anchor
		}
		for k, sub := range v {
			v[k] = rewrite(sub, ptr+"/"+escapePointer(k), anchor)
		}
		for _, bound := range []string{"Minimum", "Maximum"} {
			excl := "exclusive" + bound
			if b, ok := v[excl].(bool); ok {
				delete(v, excl)
				plain := "m" + bound[1:]
				if lim, ok := v[plain]; ok && b {
					v[excl] = lim
					delete(v, plain)
				}
			}
		}
		nullable, ok := v["nullable"].(bool)
		if !ok {
			return v
		}
		delete(v, "nullable")
		if !nullable {
			return v
		}
		if t, ok := v["type"].(string); ok {
			v["type"] = []any{t, "null"}
			if enum, ok := v["enum"].([]any); ok {
				v["enum"] = append(enum, nil)
			}
			return v
		}
		return map[string]any{"anyOf": []any{v, map[string]any{"type": "null"}}}
	}
	return v
}

// escapePointer escapes a key for a JSON pointer (RFC 6901).
func escapePointer(k string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(k)
}

// validateBody validates with the server's cached schema for protocol. A
// body that breaks it gets the error the API would send (invalidBody).
func (s *Server) validateBody(protocol providers.Protocol, body []byte) (*APIError, error) {
	s.mu.Lock()
	if _, known := requestSchemas[protocol]; !known {
		// A reply forced to a protocol without a schema: nothing to check.
		s.mu.Unlock()
		return nil, nil
	}
	sch, fields := s.schemas[protocol], s.fields[protocol]
	s.mu.Unlock()
	if sch == nil {
		var err error
		if sch, fields, err = compileRequest(protocol); err != nil {
			return nil, err
		}
		s.mu.Lock()
		s.schemas[protocol], s.fields[protocol] = sch, fields
		s.mu.Unlock()
	}
	verr := validateWith(sch, body)
	if verr == nil {
		return nil, nil
	}
	var top map[string]any
	_ = json.Unmarshal(body, &top)
	return invalidBody(protocol, unknownFields(fields, top), verr.Error()), nil
}
