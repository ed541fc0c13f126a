package runner

import (
	"bytes"
	"encoding/json"
	"fmt"
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

// CompileOutputSchema reads a JSON Schema document for --schema.
func CompileOutputSchema(name string, doc []byte) (*OutputSchema, error) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return nil, fmt.Errorf("the schema is not JSON: %w", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("tavo-output.json", v); err != nil {
		return nil, fmt.Errorf("the schema is invalid: %w", err)
	}
	s, err := c.Compile("tavo-output.json")
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
