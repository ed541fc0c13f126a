package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/tavo-cli/tavo/pkg/resources"
	"sort"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Catalog holds the tools of a run by name, each with its argument schema
// compiled once. It is safe for concurrent use.
type Catalog struct {
	mu      sync.RWMutex
	entries map[string]*entry
	ids     map[string]string // stable ID → name
	// centre is the resource centre results are archived in; nil keeps
	// them in memory for the run.
	centre *resources.Centre
}

// SetResources makes c the resource centre where the run's oversized
// results are archived (and tavo_read reads). Set it before the run starts.
func (c *Catalog) SetResources(r *resources.Centre) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.centre = r
}

// Resources is the catalog's resource centre, nil when none was set.
func (c *Catalog) Resources() *resources.Centre {
	if c == nil {
		return nil
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.centre
}

// entry is one catalogued tool.
type entry struct {
	tool Tool
	spec Spec
	// doc is the decoded schema document, kept to phrase validation errors
	// (the compiled schema does not expose everything needed).
	doc any

	once       sync.Once
	schema     *jsonschema.Schema
	compileErr error
}

// compiled returns the compiled schema, compiling it on first use.
func (e *entry) compiled() (*jsonschema.Schema, error) {
	e.once.Do(func() { e.schema, e.compileErr = compileSchema(e.spec.Name, e.doc) })
	return e.schema, e.compileErr
}

// NewCatalog returns a catalog holding ts; it fails on the first tool Add
// rejects.
func NewCatalog(ts ...Tool) (*Catalog, error) {
	c := &Catalog{}
	for _, t := range ts {
		if err := c.Add(t); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Add adds t. It rejects a name that does not match ^[a-zA-Z0-9_-]{1,64}$,
// a name or stable ID already present, and a parameter schema that is not
// an object schema ("type": "object") or does not compile. An empty ID
// defaults to the name and an empty Source to builtin.
//
// Schemas of extension and MCP tools are compiled here, once. Built-in
// schemas are constants checked by their packages' tests (CheckTool), so
// they are compiled on first use instead: compiling ~25 schemas against the
// JSON Schema meta-schema costs several milliseconds that `tavo tools list`
// and short runs should not pay.
func (c *Catalog) Add(t Tool) error {
	if t == nil {
		return errors.New("add tool: the tool is nil")
	}
	spec := t.Spec()
	if !ValidName(spec.Name) {
		return fmt.Errorf("add tool %q: a tool name must be 1-64 letters, digits, '_' or '-'", spec.Name)
	}
	if spec.ID == "" {
		spec.ID = spec.Name
	}
	if spec.Source == "" {
		spec.Source = SourceBuiltin
	}
	doc, err := decodeSchema(spec.Parameters)
	if err != nil {
		return fmt.Errorf("add tool %q: %w", spec.Name, err)
	}
	e := &entry{tool: t, spec: spec, doc: doc}
	if spec.Source != SourceBuiltin {
		if _, err := e.compiled(); err != nil {
			return fmt.Errorf("add tool %q: %w", spec.Name, err)
		}
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[string]*entry{}
		c.ids = map[string]string{}
	}
	if _, dup := c.entries[spec.Name]; dup {
		return fmt.Errorf("add tool %q: a tool with this name is already registered", spec.Name)
	}
	if other, dup := c.ids[spec.ID]; dup {
		return fmt.Errorf("add tool %q: its ID %q is already used by tool %q", spec.Name, spec.ID, other)
	}
	c.entries[spec.Name] = e
	c.ids[spec.ID] = spec.Name
	return nil
}

// ValidName reports whether name is a valid model-facing tool name,
// ^[a-zA-Z0-9_-]{1,64}$.
func ValidName(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// CheckTool reports whether t would be accepted by a catalog, compiling its
// schema now whatever its source. Built-in tool packages call it in tests.
func CheckTool(t Tool) error {
	c := &Catalog{}
	if err := c.Add(t); err != nil {
		return err
	}
	_, err := c.lookup(t.Spec().Name).compiled()
	if err != nil {
		return fmt.Errorf("tool %q: %w", t.Spec().Name, err)
	}
	return nil
}

// decodeSchema decodes a parameter schema and checks that it is an object
// schema.
func decodeSchema(raw json.RawMessage) (any, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, errors.New("the parameter schema is empty; it must be an object schema")
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("the parameter schema is not valid JSON: %w", err)
	}
	obj, ok := doc.(map[string]any)
	if !ok || obj["type"] != "object" {
		return nil, errors.New(`the parameter schema must be an object schema with "type": "object"`)
	}
	return doc, nil
}

// schemaURL is the location a tool's schema is compiled under.
func schemaURL(name string) string { return "tavo:///tools/" + name + ".json" }

// compileSchema compiles one tool's decoded parameter schema. Remote and
// file references are refused: a schema from an extension must not make tavo
// read files or the network.
func compileSchema(name string, doc any) (*jsonschema.Schema, error) {
	url := schemaURL(name)
	comp := jsonschema.NewCompiler()
	comp.UseLoader(refuseLoader{})
	if err := comp.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("the parameter schema cannot be loaded: %w", err)
	}
	schema, err := comp.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("the parameter schema does not compile: %w", err)
	}
	return schema, nil
}

// refuseLoader refuses every external schema reference.
type refuseLoader struct{}

func (refuseLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("external schema references are not allowed: %s", url)
}

// Get returns the tool called name.
func (c *Catalog) Get(name string) (Tool, bool) {
	e := c.lookup(name)
	if e == nil {
		return nil, false
	}
	return e.tool, true
}

// SpecOf returns the catalogued spec of the tool called name, with its ID and
// Source defaults filled in.
func (c *Catalog) SpecOf(name string) (Spec, bool) {
	e := c.lookup(name)
	if e == nil {
		return Spec{}, false
	}
	return e.spec, true
}

// lookup returns the entry called name, nil when absent or c is nil.
func (c *Catalog) lookup(name string) *entry {
	if c == nil {
		return nil
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.entries[name]
}

// Specs returns the specs of all tools sorted by name.
func (c *Catalog) Specs() []Spec {
	if c == nil {
		return nil
	}
	c.mu.RLock()
	specs := make([]Spec, 0, len(c.entries))
	for _, e := range c.entries {
		specs = append(specs, e.spec)
	}
	c.mu.RUnlock()
	sort.Slice(specs, func(i, j int) bool { return specs[i].Name < specs[j].Name })
	return specs
}

// Resident returns the names of the resident tools sorted by name.
func (c *Catalog) Resident() []string {
	var names []string
	for _, s := range c.Specs() {
		if s.Resident {
			names = append(names, s.Name)
		}
	}
	return names
}

// Len returns the number of tools.
func (c *Catalog) Len() int {
	if c == nil {
		return 0
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.entries)
}
