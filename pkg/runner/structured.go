package runner

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
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

// LoadOutputSchema reads and compiles the --schema file at path. A relative
// $ref ("defs.json#/$defs/item") resolves against the file's directory, as
// JSON Schema says a reference resolves against its document's URI — not
// against wherever tavo was started. The files it refers to are bundled
// into the document (BundleSchema), and that one document is both what the
// provider is sent and what the answer is validated against, so the two
// can never disagree.
func LoadOutputSchema(name, path string) (*OutputSchema, error) {
	doc, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the schema: %w", err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("locating the schema: %w", err)
	}
	bundled, err := BundleSchema(abs, doc)
	if err != nil {
		return nil, err
	}
	return compileOutputSchema(name, abs, bundled)
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

// maxBundledFiles bounds how many files one --schema may pull in.
const maxBundledFiles = 100

// BundleSchema returns the schema document doc, read from the file at path,
// with every schema it references in other files copied into it, so that a
// provider, which has no access to those files, gets one self-contained
// schema. Each referenced file goes under the root's "$defs" ("definitions"
// for drafts 4 to 7) by a name made from its file name, and every
// reference is rewritten to a JSON pointer into the document itself:
// "defs/common.json#/$defs/name" becomes "#/$defs/common/$defs/name", and a
// local "#/…" inside common.json becomes "#/$defs/common/…". References
// resolve against the directory of the file they are written in. Files
// that refer to each other (or back to the root) are each copied once, so
// a cycle between files stays a valid recursive schema.
//
// A document without references to other files comes back unchanged, byte
// for byte. Refused, with one line saying which reference: a reference to a
// remote document (http:, https:, urn: or any URI with a scheme), a
// plain-name fragment ("other.json#anchor") into another file, and a file
// that cannot be read or is not JSON.
func BundleSchema(path string, doc []byte) ([]byte, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	root, err := decodeSchemaJSON(doc)
	if err != nil {
		return nil, fmt.Errorf("the schema is not JSON: %w", err)
	}
	b := &bundler{root: abs, keys: map[string]string{}, used: map[string]bool{}, container: defsContainer(root)}
	if rm, ok := root.(map[string]any); ok {
		if defs, ok := rm[b.container].(map[string]any); ok {
			for k := range defs {
				b.used[k] = true
			}
		}
	}
	if err := b.walk(root, abs, ""); err != nil {
		return nil, err
	}
	if len(b.order) == 0 {
		return doc, nil
	}
	rm, ok := root.(map[string]any)
	if !ok {
		return nil, errors.New("the schema refers to other files but is not an object, so they cannot be bundled into it")
	}
	defs, _ := rm[b.container].(map[string]any)
	if defs == nil {
		defs = map[string]any{}
	}
	for _, f := range b.order {
		defs[f.key] = f.doc
	}
	rm[b.container] = defs
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(root); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// bundler collects the files a schema refers to.
type bundler struct {
	root      string            // the root file's absolute path
	container string            // "$defs" or "definitions"
	keys      map[string]string // file → its key under the container
	used      map[string]bool   // keys taken
	order     []bundledFile     // in the order first met, for stable output
}

type bundledFile struct {
	key string
	doc any
}

// dataKeywords hold JSON values, not schemas: a "$ref" inside them is data.
var dataKeywords = map[string]bool{"enum": true, "const": true, "default": true, "examples": true}

// walk rewrites every "$ref" in v, which lies in file; prefix is the
// pointer of file's document inside the bundle ("" for the root).
func (b *bundler) walk(v any, file, prefix string) error {
	switch v := v.(type) {
	case map[string]any:
		// In key order, so files are named the same way every time.
		for _, k := range slices.Sorted(maps.Keys(v)) {
			sub := v[k]
			if dataKeywords[k] {
				continue
			}
			if ref, ok := sub.(string); ok && k == "$ref" {
				nref, err := b.rewrite(ref, file, prefix)
				if err != nil {
					return err
				}
				v[k] = nref
				continue
			}
			if err := b.walk(sub, file, prefix); err != nil {
				return err
			}
		}
	case []any:
		for _, sub := range v {
			if err := b.walk(sub, file, prefix); err != nil {
				return err
			}
		}
	}
	return nil
}

// rewrite turns ref, written in file, into a pointer into the bundle.
func (b *bundler) rewrite(ref, file, prefix string) (string, error) {
	u, err := url.Parse(ref)
	if err != nil {
		return "", fmt.Errorf("$ref %q in %s is not a valid URI reference", ref, filepath.Base(file))
	}
	if u.Scheme != "" || u.Host != "" {
		return "", fmt.Errorf("$ref %q in %s points at a remote document; tavo sends the schema to the provider and bundles only local files: save it beside the schema and refer to it by a relative path", ref, filepath.Base(file))
	}
	if u.Path == "" { // a reference inside file's own document
		return b.local(ref, u.Fragment, prefix, file)
	}
	p, err := url.PathUnescape(u.Path)
	if err != nil {
		return "", fmt.Errorf("$ref %q in %s is not a valid URI reference", ref, filepath.Base(file))
	}
	target := filepath.Clean(filepath.Join(filepath.Dir(file), filepath.FromSlash(p)))
	if filepath.IsAbs(filepath.FromSlash(p)) {
		target = filepath.Clean(filepath.FromSlash(p))
	}
	tprefix, err := b.include(target, ref, file)
	if err != nil {
		return "", err
	}
	return b.local(ref, u.Fragment, tprefix, file)
}

// local is the bundle's pointer for fragment in the document at prefix.
func (b *bundler) local(ref, fragment, prefix, file string) (string, error) {
	if fragment != "" && !strings.HasPrefix(fragment, "/") {
		if prefix == "" {
			return ref, nil // an anchor of the root document stays as it is
		}
		return "", fmt.Errorf("$ref %q in %s uses a plain-name fragment into another file, which cannot be bundled: use a JSON pointer (\"#/$defs/…\")", ref, filepath.Base(file))
	}
	if prefix == "" && fragment == "" {
		return "#", nil
	}
	return "#" + prefix + fragment, nil
}

// include adds the file at path to the bundle, once, and returns its
// document's pointer in the bundle ("" for the root file itself).
func (b *bundler) include(path, ref, from string) (string, error) {
	if path == b.root {
		return "", nil
	}
	if key, ok := b.keys[path]; ok {
		return "/" + b.container + "/" + key, nil
	}
	if len(b.order) >= maxBundledFiles {
		return "", fmt.Errorf("the schema refers to more than %d files", maxBundledFiles)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("$ref %q in %s: %w", ref, filepath.Base(from), err)
	}
	doc, err := decodeSchemaJSON(data)
	if err != nil {
		return "", fmt.Errorf("$ref %q in %s: %s is not JSON: %v", ref, filepath.Base(from), filepath.Base(path), err)
	}
	if m, ok := doc.(map[string]any); ok {
		// Inside the bundle the file is no resource of its own: every
		// reference in it is rewritten to the bundle's root.
		delete(m, "$id")
		delete(m, "$schema")
	}
	key := b.newKey(path)
	b.keys[path] = key
	b.order = append(b.order, bundledFile{key: key, doc: doc})
	prefix := "/" + b.container + "/" + key
	if err := b.walk(doc, path, prefix); err != nil {
		return "", err
	}
	return prefix, nil
}

// newKey names a bundled file after its base name, letters, digits, _ and
// - only (so the pointer needs no escaping), unique in the container.
func (b *bundler) newKey(path string) string {
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	var sb strings.Builder
	for _, r := range base {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			sb.WriteRune(r)
		} else {
			sb.WriteByte('_')
		}
	}
	key := sb.String()
	if key == "" {
		key = "schema"
	}
	cand := key
	for i := 2; b.used[cand]; i++ {
		cand = fmt.Sprintf("%s_%d", key, i)
	}
	key = cand
	b.used[key] = true
	return key
}

// defsContainer is where bundled files go: "definitions" for the drafts
// that predate "$defs", "$defs" otherwise.
func defsContainer(root any) string {
	if m, ok := root.(map[string]any); ok {
		if s, _ := m["$schema"].(string); strings.Contains(s, "draft-04") || strings.Contains(s, "draft-06") || strings.Contains(s, "draft-07") {
			return "definitions"
		}
	}
	return "$defs"
}

// decodeSchemaJSON decodes one JSON document keeping numbers as written.
func decodeSchemaJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("more than one JSON value")
	}
	return v, nil
}
