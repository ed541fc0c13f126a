package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// Validate checks the raw argument text of a call to the tool called name
// and returns it as a JSON object. Empty or blank text means {}. Failures are
// invalid_arguments with details {path, expected, actualType} describing one
// problem: the schema validator may find several, and the one with the
// smallest path (keys in byte order, indexes numerically, a parent before its
// children) is reported so the same arguments always give the same error. A
// missing required field is reported at the field's own path with actualType
// "missing"; an unknown field at its own path. Path "" is the whole
// arguments object. An unknown name is unknown_tool.
func (c *Catalog) Validate(name string, args []byte) (json.RawMessage, *Error) {
	e := c.lookup(name)
	if e == nil {
		return nil, unknownTool(name)
	}
	return e.validate(args)
}

// validate is Validate for one entry.
func (e *entry) validate(args []byte) (json.RawMessage, *Error) {
	text := bytes.TrimSpace(args)
	if len(text) == 0 {
		text = []byte("{}")
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(text))
	if err != nil {
		return nil, &Error{
			Code:    CodeInvalidArguments,
			Message: "arguments are not valid JSON",
			Details: map[string]any{"path": "", "expected": "JSON object", "actualType": "invalid JSON"},
		}
	}
	if _, ok := inst.(map[string]any); !ok {
		return nil, InvalidArgument("", "object", JSONType(inst))
	}
	schema, err := e.compiled()
	if err != nil {
		return nil, Errorf(CodeInternalError, "the tool's argument schema is broken, so it cannot be called")
	}
	if err := schema.Validate(inst); err != nil {
		var ve *jsonschema.ValidationError
		if !errors.As(err, &ve) {
			return nil, Errorf(CodeInvalidArguments, "the arguments do not match the tool's schema")
		}
		m := &errMapper{inst: inst, doc: e.doc, url: schemaURL(e.spec.Name)}
		return nil, m.first(ve)
	}
	return json.RawMessage(bytes.Clone(text)), nil
}

// seg is one step of an argument path.
type seg struct {
	key     string
	index   int
	isIndex bool
}

// issue is one validation problem in model-facing terms.
type issue struct {
	path     []seg
	expected string
	actual   string
	shown    string
	// message overrides the standard sentence when set.
	message string
	// rank orders issues at the same path: missing and unknown fields first,
	// then wrong types, then value constraints.
	rank int
	// typeMismatch marks a wrong JSON type; anyOf/oneOf branches whose value
	// has the wrong type are dropped in favour of branches that fit.
	typeMismatch bool
	wantTypes    []string
}

// errMapper turns the validator's error tree into issues.
type errMapper struct {
	inst any
	doc  any
	url  string
}

// first returns the error for the first issue of ve.
func (m *errMapper) first(ve *jsonschema.ValidationError) *Error {
	issues := m.walk(ve)
	if len(issues) == 0 {
		return Errorf(CodeInvalidArguments, "the arguments do not match the tool's schema")
	}
	sort.SliceStable(issues, func(i, j int) bool { return issueLess(issues[i], issues[j]) })
	is := issues[0]
	path := pathString(is.path)
	msg := is.message
	if msg == "" {
		msg = argumentMessage(path, is.expected, is.actual, is.shown)
	}
	return &Error{
		Code:    CodeInvalidArguments,
		Message: msg,
		Details: map[string]any{"path": path, "expected": is.expected, "actualType": is.actual},
	}
}

// issueLess orders issues by path, then rank, then expected text.
func issueLess(a, b issue) bool {
	for i := 0; i < len(a.path) && i < len(b.path); i++ {
		x, y := a.path[i], b.path[i]
		switch {
		case x.isIndex && y.isIndex:
			if x.index != y.index {
				return x.index < y.index
			}
		case x.isIndex != y.isIndex:
			return x.isIndex
		case x.key != y.key:
			return x.key < y.key
		}
	}
	if len(a.path) != len(b.path) {
		return len(a.path) < len(b.path)
	}
	if a.rank != b.rank {
		return a.rank < b.rank
	}
	return a.expected < b.expected
}

// pathString writes segments the way JoinPath does.
func pathString(p []seg) string {
	parts := make([]any, len(p))
	for i, s := range p {
		if s.isIndex {
			parts[i] = s.index
		} else {
			parts[i] = s.key
		}
	}
	return JoinPath(parts...)
}

// walk flattens an error tree into issues.
func (m *errMapper) walk(e *jsonschema.ValidationError) []issue {
	switch k := e.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.AllOf, *kind.Reference:
		if len(e.Causes) == 0 {
			return []issue{m.generic(e, "a valid value")}
		}
		var out []issue
		for _, c := range e.Causes {
			out = append(out, m.walk(c)...)
		}
		return out
	case *kind.AnyOf:
		return m.alternatives(e)
	case *kind.OneOf:
		if len(k.Subschemas) == 0 {
			return m.alternatives(e)
		}
		return []issue{m.generic(e, "a value matching exactly one of the alternatives")}
	default:
		return m.leaf(e)
	}
}

// alternatives picks the issues of the anyOf/oneOf branch that best fits the
// value: branches whose type does not fit are dropped; when none fits, the
// result is one type issue listing every accepted type.
func (m *errMapper) alternatives(e *jsonschema.ValidationError) []issue {
	loc, val := m.locate(e.InstanceLocation)
	var (
		best      []issue
		bestDepth = -1
		types     []string
	)
	for _, c := range e.Causes {
		branch := m.walk(c)
		wrongType := false
		depth := 0
		for _, is := range branch {
			if is.typeMismatch && len(is.path) == len(loc) {
				wrongType = true
				for _, t := range is.wantTypes {
					if !slices.Contains(types, t) {
						types = append(types, t)
					}
				}
			}
			depth = max(depth, len(is.path))
		}
		if wrongType || len(branch) == 0 {
			continue
		}
		if depth > bestDepth || depth == bestDepth && len(branch) < len(best) {
			best, bestDepth = branch, depth
		}
	}
	if best != nil {
		return best
	}
	if len(types) == 0 {
		return []issue{m.generic(e, "a value matching one of the alternatives")}
	}
	return []issue{{
		path: loc, expected: strings.Join(types, " or "), actual: JSONType(val),
		shown: shortValue(val), rank: 1, typeMismatch: true, wantTypes: types,
	}}
}

// generic is an issue at e's location with a fixed expectation.
func (m *errMapper) generic(e *jsonschema.ValidationError, expected string) issue {
	loc, val := m.locate(e.InstanceLocation)
	return issue{path: loc, expected: expected, actual: JSONType(val), shown: shortValue(val), rank: 2}
}

// leaf maps one validator error to issues (several for a list of missing or
// unknown fields).
func (m *errMapper) leaf(e *jsonschema.ValidationError) []issue {
	loc, val := m.locate(e.InstanceLocation)
	sch := m.schemaAt(e.SchemaURL)
	at := func(expected string) []issue {
		return []issue{{path: loc, expected: expected, actual: JSONType(val), shown: shortValue(val), rank: 2}}
	}
	switch k := e.ErrorKind.(type) {
	case *kind.Type:
		want := k.Want
		if ts, ok := sch["type"].([]any); ok && len(anyStrings(ts)) == len(want) {
			want = anyStrings(ts) // the order the schema author chose
		}
		return []issue{{path: loc, expected: strings.Join(want, " or "), actual: JSONType(val),
			shown: shortValue(val), rank: 1, typeMismatch: true, wantTypes: want}}
	case *kind.Required:
		return m.missing(loc, k.Missing, func(name string) string { return describeSchema(propSchema(sch, name)) })
	case *kind.Dependency:
		return m.missing(loc, k.Missing, func(string) string { return "a value when " + k.Prop + " is set" })
	case *kind.DependentRequired:
		return m.missing(loc, k.Missing, func(string) string { return "a value when " + k.Prop + " is set" })
	case *kind.AdditionalProperties:
		return m.unknownFields(loc, val, sch, k.Properties)
	case *kind.PropertyNames:
		p := withKey(loc, k.Property)
		return []issue{{path: p, expected: "a valid field name", actual: "string", shown: shortValue(k.Property), rank: 0}}
	case *kind.Enum:
		return at(enumPhrase(k.Want))
	case *kind.Const:
		return at("exactly " + displayValue(k.Want))
	case *kind.Minimum, *kind.Maximum, *kind.ExclusiveMinimum, *kind.ExclusiveMaximum:
		return at(rangePhrase(sch, e.ErrorKind))
	case *kind.MultipleOf:
		return at("a multiple of " + ratString(k.Want))
	case *kind.MinLength, *kind.MaxLength:
		return at(countPhrase(sch, "minLength", "maxLength", "string", "character", "non-empty string"))
	case *kind.MinItems, *kind.MaxItems:
		return at(countPhrase(sch, "minItems", "maxItems", "array", "item", "non-empty array"))
	case *kind.MinProperties, *kind.MaxProperties:
		return at(countPhrase(sch, "minProperties", "maxProperties", "object", "field", "non-empty object"))
	case *kind.Pattern:
		return at("string matching the pattern " + k.Want)
	case *kind.Format:
		return at("string in " + k.Want + " format")
	case *kind.UniqueItems:
		arr, _ := val.([]any)
		p := withIndex(loc, k.Duplicates[1])
		var item any
		if k.Duplicates[1] < len(arr) {
			item = arr[k.Duplicates[1]]
		}
		return []issue{{path: p, expected: "an item not repeated in the array (it equals " +
			pathString(withIndex(loc, k.Duplicates[0])) + ")", actual: JSONType(item), shown: shortValue(item), rank: 2}}
	case *kind.Contains:
		return at("array containing at least one matching item")
	case *kind.MinContains:
		return at(fmt.Sprintf("array with at least %d matching items", k.Want))
	case *kind.MaxContains:
		return at(fmt.Sprintf("array with at most %d matching items", k.Want))
	case *kind.FalseSchema:
		return at("no value (not allowed here)")
	case *kind.Not:
		return at("a value other than the excluded one")
	case *kind.ContentEncoding:
		return at("string encoded as " + k.Want)
	case *kind.ContentMediaType:
		return at("string of media type " + k.Want)
	default:
		return at("a valid value")
	}
}

// missing builds one issue per missing field of the object at loc.
func (m *errMapper) missing(loc []seg, names []string, expect func(string) string) []issue {
	out := make([]issue, 0, len(names))
	for _, n := range names {
		out = append(out, issue{path: withKey(loc, n), expected: expect(n), actual: "missing", rank: 0})
	}
	return out
}

// unknownFields builds one issue per field the schema at sch does not allow.
func (m *errMapper) unknownFields(loc []seg, val any, sch map[string]any, names []string) []issue {
	obj, _ := val.(map[string]any)
	var allowed []string
	if props, ok := sch["properties"].(map[string]any); ok {
		for k := range props {
			allowed = append(allowed, k)
		}
		sort.Strings(allowed)
	}
	out := make([]issue, 0, len(names))
	for _, n := range names {
		p := withKey(loc, n)
		msg := "argument " + pathString(p) + " is not a known field; "
		if len(allowed) == 0 {
			msg += "no fields are allowed here."
		} else {
			msg += "allowed fields here: " + strings.Join(allowed, ", ") + "."
		}
		out = append(out, issue{path: p, expected: "no additional properties", actual: JSONType(obj[n]), message: msg, rank: 0})
	}
	return out
}

// locate converts an instance location to path segments and returns the
// value found there.
func (m *errMapper) locate(tokens []string) ([]seg, any) {
	p := make([]seg, 0, len(tokens))
	cur := m.inst
	for _, tok := range tokens {
		switch c := cur.(type) {
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				p = append(p, seg{key: tok})
				cur = nil
				continue
			}
			p = append(p, seg{index: i, isIndex: true})
			cur = c[i]
		case map[string]any:
			p = append(p, seg{key: tok})
			cur = c[tok]
		default:
			p = append(p, seg{key: tok})
			cur = nil
		}
	}
	return p, cur
}

// schemaAt resolves a schema location inside the tool's own schema document;
// nil when it points elsewhere.
func (m *errMapper) schemaAt(loc string) map[string]any {
	base, frag, _ := strings.Cut(loc, "#")
	if base != m.url {
		return nil
	}
	frag, err := url.PathUnescape(frag)
	if err != nil {
		return nil
	}
	cur := m.doc
	if frag != "" {
		for _, tok := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			switch c := cur.(type) {
			case map[string]any:
				cur = c[tok]
			case []any:
				i, err := strconv.Atoi(tok)
				if err != nil || i < 0 || i >= len(c) {
					return nil
				}
				cur = c[i]
			default:
				return nil
			}
		}
	}
	obj, _ := cur.(map[string]any)
	return obj
}

// withKey returns loc extended by an object key, never sharing loc's array.
func withKey(loc []seg, key string) []seg {
	return append(append([]seg(nil), loc...), seg{key: key})
}

// withIndex returns loc extended by an array index.
func withIndex(loc []seg, i int) []seg {
	return append(append([]seg(nil), loc...), seg{index: i, isIndex: true})
}

// propSchema returns the schema of property name of the object schema sch.
func propSchema(sch map[string]any, name string) map[string]any {
	props, _ := sch["properties"].(map[string]any)
	p, _ := props[name].(map[string]any)
	return p
}

// describeSchema phrases what a schema accepts, for a missing field.
func describeSchema(sch map[string]any) string {
	if sch == nil {
		return "a value"
	}
	if vals, ok := sch["enum"].([]any); ok && len(vals) > 0 {
		return enumPhrase(vals)
	}
	switch t := sch["type"].(type) {
	case string:
		return t
	case []any:
		var ts []string
		for _, x := range t {
			if s, ok := x.(string); ok {
				ts = append(ts, s)
			}
		}
		if len(ts) > 0 {
			return strings.Join(ts, " or ")
		}
	}
	return "a value"
}

// enumPhrase is "one of a|b|c" (or "exactly a" for a single value).
func enumPhrase(vals []any) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		if s, ok := v.(string); ok {
			parts[i] = s
		} else {
			parts[i] = displayValue(v)
		}
	}
	if len(parts) == 1 {
		return "exactly " + parts[0]
	}
	return "one of " + strings.Join(parts, "|")
}

// displayValue renders a schema constant compactly.
func displayValue(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "the fixed value"
	}
	return string(b)
}

// shortValue renders a scalar instance value for a message, or "" when the
// value is a container, null, or too long to be useful.
func shortValue(v any) string {
	switch v := v.(type) {
	case string:
		if utf8.RuneCountInString(v) > 40 {
			return ""
		}
		b, _ := json.Marshal(v)
		return string(b)
	case json.Number:
		if len(v) > 40 {
			return ""
		}
		return string(v)
	case bool:
		return strconv.FormatBool(v)
	default:
		return ""
	}
}

// numberWord is "integer" for integer schemas, else "number".
func numberWord(sch map[string]any) string {
	if sch["type"] == "integer" {
		return "integer"
	}
	if ts, ok := sch["type"].([]any); ok && slices.Contains(anyStrings(ts), "integer") {
		return "integer"
	}
	return "number"
}

// rangePhrase phrases the numeric bounds of sch ("integer from 1 to 20",
// "integer ≤ 20", "number > 0"), falling back on the failing keyword when the
// schema cannot be read.
func rangePhrase(sch map[string]any, k jsonschema.ErrorKind) string {
	word := numberWord(sch)
	var lower, upper string
	lowerIncl, upperIncl := true, true
	if v, ok := sch["minimum"].(json.Number); ok {
		lower = string(v)
	}
	if v, ok := sch["exclusiveMinimum"].(json.Number); ok {
		lower, lowerIncl = string(v), false
	}
	if v, ok := sch["maximum"].(json.Number); ok {
		upper = string(v)
	}
	if v, ok := sch["exclusiveMaximum"].(json.Number); ok {
		upper, upperIncl = string(v), false
	}
	if lower == "" && upper == "" {
		switch k := k.(type) {
		case *kind.Minimum:
			lower = ratString(k.Want)
		case *kind.ExclusiveMinimum:
			lower, lowerIncl = ratString(k.Want), false
		case *kind.Maximum:
			upper = ratString(k.Want)
		case *kind.ExclusiveMaximum:
			upper, upperIncl = ratString(k.Want), false
		}
	}
	lowOp, upOp := "≥ ", "≤ "
	if !lowerIncl {
		lowOp = "> "
	}
	if !upperIncl {
		upOp = "< "
	}
	switch {
	case lower != "" && upper != "" && lowerIncl && upperIncl:
		return word + " from " + lower + " to " + upper
	case lower != "" && upper != "":
		return word + " " + lowOp + lower + " and " + upOp + upper
	case lower != "":
		return word + " " + lowOp + lower
	case upper != "":
		return word + " " + upOp + upper
	}
	return word + " in the allowed range"
}

// countPhrase phrases length, item-count or field-count bounds.
func countPhrase(sch map[string]any, minKey, maxKey, noun, unit, nonEmpty string) string {
	lo, hasLo := intKeyword(sch, minKey)
	hi, hasHi := intKeyword(sch, maxKey)
	plural := func(n int) string {
		if n == 1 {
			return strconv.Itoa(n) + " " + unit
		}
		return strconv.Itoa(n) + " " + unit + "s"
	}
	switch {
	case hasLo && hasHi && lo == hi:
		return noun + " of exactly " + plural(lo)
	case hasLo && hasHi && lo <= 1:
		if lo == 1 {
			return nonEmpty + " of at most " + plural(hi)
		}
		return noun + " of at most " + plural(hi)
	case hasLo && hasHi:
		return noun + " of " + strconv.Itoa(lo) + " to " + plural(hi)
	case hasLo && lo == 1:
		return nonEmpty
	case hasLo:
		return noun + " of at least " + plural(lo)
	case hasHi:
		return noun + " of at most " + plural(hi)
	}
	return noun + " of an allowed size"
}

// intKeyword reads a non-negative integer keyword of sch.
func intKeyword(sch map[string]any, key string) (int, bool) {
	n, ok := sch[key].(json.Number)
	if !ok {
		return 0, false
	}
	i, err := n.Int64()
	if err != nil {
		return 0, false
	}
	return int(i), true
}

// ratString formats a bound.
func ratString(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// anyStrings keeps the strings of a decoded JSON array.
func anyStrings(xs []any) []string {
	var out []string
	for _, x := range xs {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
