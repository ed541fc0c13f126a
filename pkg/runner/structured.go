package runner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/tavo-cli/tavo/pkg/providers"
)

// CodeInvalidStructuredOutput fails a --schema run whose answer stayed
// invalid after one repair request.
const CodeInvalidStructuredOutput = "invalid_structured_output"

// OutputSchema asks for a final answer that is JSON valid against a schema
// (--schema): the codec passes it to the provider's structured-output
// feature, and the runner validates the answer itself.
type OutputSchema struct {
	// Wire is what codecs send.
	Wire *providers.OutputSchema
	// Schema validates the answer.
	Schema *jsonschema.Schema
}

// CompileOutputSchema reads a JSON Schema document for --schema. A
// relative $ref in it resolves against the current directory; LoadOutputSchema
// resolves them against the schema file's.
func CompileOutputSchema(name string, doc []byte) (*OutputSchema, error) {
	return compileOutputSchema(name, "tavo-output.json", doc)
}

// LoadOutputSchema reads and compiles the --schema file at path. The
// document's location is the file itself, so a relative $ref
// ("defs.json#/$defs/item") resolves against the file's directory, as JSON
// Schema says a reference resolves against its document's URI — not
// against wherever tavo was started.
func LoadOutputSchema(name, path string) (*OutputSchema, error) {
	doc, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the schema: %w", err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("locating the schema: %w", err)
	}
	return compileOutputSchema(name, abs, doc)
}

// compileOutputSchema compiles doc as the resource at location (a file
// path or URL), the base of its relative references.
func compileOutputSchema(name, location string, doc []byte) (*OutputSchema, error) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return nil, fmt.Errorf("the schema is not JSON: %w", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(location, v); err != nil {
		return nil, fmt.Errorf("the schema is invalid: %w", err)
	}
	s, err := c.Compile(location)
	if err != nil {
		return nil, fmt.Errorf("the schema does not compile: %s", oneLineErr(err))
	}
	return &OutputSchema{Wire: &providers.OutputSchema{Name: name, Schema: doc}, Schema: s}, nil
}

// parse reads the answer as JSON (a ```json fence around it is accepted)
// and validates it.
func (o *OutputSchema) parse(text string) (any, error) {
	t := strings.TrimSpace(text)
	if strings.HasPrefix(t, "```") {
		t = strings.TrimPrefix(t, "```json")
		t = strings.TrimPrefix(t, "```")
		t = strings.TrimSuffix(strings.TrimSpace(t), "```")
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(t))
	if err != nil {
		return nil, fmt.Errorf("the answer is not JSON: %v", err)
	}
	if err := o.Schema.Validate(v); err != nil {
		return nil, fmt.Errorf("the answer does not match the schema: %s", oneLineErr(err))
	}
	// Keep the value as the model wrote it: key order and numbers intact.
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(t)); err != nil {
		return nil, fmt.Errorf("the answer is not JSON: %v", err)
	}
	return json.RawMessage(buf.Bytes()), nil
}

func oneLineErr(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

// repairPrompt asks once for a corrected answer.
func repairPrompt(problem string) providers.Message {
	return providers.Message{Role: providers.RoleUser, Parts: []providers.Part{{Type: providers.PartText, Text: "Your last answer cannot be used: " + problem +
		". Reply with only the corrected JSON value, nothing else."}}}
}
