package gemini

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Gemini's function parameters and responseSchema are an OpenAPI 3.0 subset
// with a closed set of fields (the Schema message of the API's discovery
// document); one unknown field, such as additionalProperties or
// exclusiveMinimum, fails the whole request. An OBJECT must have properties
// and an ARRAY its items. toGeminiSchema rewrites a JSON Schema into that
// subset:
//
//   - type becomes upper case; a type list with "null" becomes nullable, and
//     several other types an anyOf; a missing type is inferred from
//     properties, items or enum.
//   - $ref is inlined from $defs/definitions (a recursive one is given up
//     after a few levels); allOf is merged; oneOf becomes anyOf; a "null"
//     branch of anyOf becomes nullable.
//   - const becomes a one-value enum; enum and const that are not strings,
//     which Gemini cannot express, are named in the description instead.
//   - exclusiveMinimum/exclusiveMaximum become minimum/maximum; examples[0]
//     becomes example; formats Gemini does not know are dropped.
//   - integer limits (minLength, maxItems, …) are written as strings, as the
//     API's JSON mapping of int64 fields has them.
//   - everything else ($schema, $id, additionalProperties, patternProperties,
//     not, if/then/else, uniqueItems, multipleOf, …) is dropped.
//
// A property whose schema cannot be expressed at all (a free-form object or
// array, an untyped value) is left out of its parent, and out of required;
// the model then cannot send it, but what it sends is still validated by
// tavo against the original schema.

// maxRefDepth bounds $ref inlining, so a recursive schema ends.
const maxRefDepth = 8

// maxDepth bounds nesting, whatever the schema.
const maxDepth = 64

// maxNodes bounds the work on one schema: inlining a definition that refers
// to itself several times grows exponentially with the depth.
const maxNodes = 5000

// geminiFormats are the formats Gemini accepts, by type.
var geminiFormats = map[string]map[string]bool{
	"STRING":  {"enum": true, "date-time": true},
	"INTEGER": {"int32": true, "int64": true},
	"NUMBER":  {"float": true, "double": true},
}

// toGeminiSchema translates a JSON Schema. It returns nil when nothing of it
// can be sent (no schema, or an object without properties, which Gemini wants
// expressed by leaving parameters out).
func toGeminiSchema(raw []byte) (map[string]any, error) {
	if len(strings.TrimSpace(string(raw))) == 0 {
		return nil, nil
	}
	var root any
	if err := json.Unmarshal(raw, &root); err != nil {
		return nil, fmt.Errorf("the schema is not valid JSON: %w", err)
	}
	t := translator{root: root}
	out, ok := t.convert(root, 0, 0)
	if !ok {
		return nil, nil
	}
	return out, nil
}

type translator struct {
	root  any
	nodes int
}

// convert translates schema s found depth levels down, under refs inlined
// $refs; ok is false when Gemini cannot express it.
func (t *translator) convert(s any, depth, refs int) (map[string]any, bool) {
	m, isMap := s.(map[string]any)
	t.nodes++
	if !isMap || depth > maxDepth || t.nodes > maxNodes {
		return nil, false
	}
	m, used, ok := t.flatten(m, refs)
	if !ok {
		return nil, false
	}
	refs += used
	out := map[string]any{}
	for _, k := range []string{"description", "title", "default"} {
		if v, ok := m[k]; ok {
			out[k] = v
		}
	}
	if ex, ok := m["example"]; ok {
		out["example"] = ex
	} else if exs, ok := m["examples"].([]any); ok && len(exs) > 0 {
		out["example"] = exs[0]
	}
	types, nullable := typesOf(m)
	if branches := alternatives(m); len(branches) > 0 {
		var conv []any
		for _, b := range branches {
			if bm, ok := b.(map[string]any); ok && isNullSchema(bm) {
				nullable = true
				continue
			}
			if c, ok := t.convert(b, depth+1, refs); ok {
				conv = append(conv, c)
			}
		}
		switch {
		case len(conv) == 0:
			return nil, false
		case len(conv) == 1 && len(types) == 0:
			// One branch left: the schema is that branch.
			single := conv[0].(map[string]any)
			for k, v := range out {
				single[k] = v
			}
			if nullable {
				single["nullable"] = true
			}
			return single, true
		case len(types) == 0:
			out["anyOf"] = conv
			if nullable {
				out["nullable"] = true
			}
			return out, true
		}
		// A type next to anyOf: the type wins, as the branches only refine it.
	}
	if len(types) == 0 {
		switch {
		case m["properties"] != nil:
			types = []string{"object"}
		case m["items"] != nil:
			types = []string{"array"}
		case m["enum"] != nil || m["const"] != nil:
			types = []string{enumType(m)}
		default:
			return nil, false
		}
	}
	if nullable {
		out["nullable"] = true
	}
	if len(types) > 1 {
		var conv []any
		for _, typ := range types {
			sub := map[string]any{}
			for k, v := range m {
				sub[k] = v
			}
			sub["type"] = typ
			delete(sub, "description")
			if c, ok := t.convert(sub, depth+1, refs); ok {
				conv = append(conv, c)
			}
		}
		if len(conv) == 0 {
			return nil, false
		}
		out["anyOf"] = conv
		return out, true
	}
	return t.typed(m, out, types[0], depth, refs)
}

// enumType infers the type of an untyped enum or const from its values.
func enumType(m map[string]any) string {
	values, _ := m["enum"].([]any)
	if c, ok := m["const"]; ok {
		values = []any{c}
	}
	typ := ""
	for _, v := range values {
		var vt string
		switch x := v.(type) {
		case string:
			vt = "string"
		case bool:
			vt = "boolean"
		case float64:
			vt = "number"
			if x == float64(int64(x)) {
				vt = "integer"
			}
		case nil:
			continue
		default:
			return "string"
		}
		switch {
		case typ == "" || typ == vt:
			typ = vt
		case typ == "integer" && vt == "number" || typ == "number" && vt == "integer":
			typ = "number"
		default:
			return "string"
		}
	}
	if typ == "" {
		return "string"
	}
	return typ
}

// typed fills out with the keywords of a schema of one type.
func (t *translator) typed(m, out map[string]any, typ string, depth, refs int) (map[string]any, bool) {
	gtype := strings.ToUpper(typ)
	switch gtype {
	case "STRING", "NUMBER", "INTEGER", "BOOLEAN", "OBJECT", "ARRAY":
	default:
		// "null" alone, or a type name Gemini does not know.
		return nil, false
	}
	out["type"] = gtype
	if f, ok := m["format"].(string); ok && geminiFormats[gtype][f] {
		out["format"] = f
	}
	t.enum(m, out, gtype)
	switch gtype {
	case "STRING":
		copyCount(m, out, "minLength", "maxLength")
		if p, ok := m["pattern"].(string); ok {
			out["pattern"] = p
		}
	case "NUMBER", "INTEGER":
		bounds(m, out)
	case "ARRAY":
		items, ok := t.convert(m["items"], depth+1, refs)
		if !ok {
			return nil, false
		}
		out["items"] = items
		copyCount(m, out, "minItems", "maxItems")
	case "OBJECT":
		props, _ := m["properties"].(map[string]any)
		converted := map[string]any{}
		for name, p := range props {
			if c, ok := t.convert(p, depth+1, refs); ok {
				converted[name] = c
			}
		}
		if len(converted) == 0 {
			return nil, false
		}
		out["properties"] = converted
		if req, ok := m["required"].([]any); ok {
			var keep []any
			for _, r := range req {
				if name, ok := r.(string); ok && converted[name] != nil {
					keep = append(keep, name)
				}
			}
			if len(keep) > 0 {
				out["required"] = keep
			}
		}
		copyCount(m, out, "minProperties", "maxProperties")
	}
	return out, true
}

// enum keeps an enum (or const) of strings; other values, which Gemini's
// string-only enum cannot hold, are named in the description.
func (t *translator) enum(m, out map[string]any, gtype string) {
	values, ok := m["enum"].([]any)
	if c, has := m["const"]; has {
		values, ok = []any{c}, true
	}
	if !ok || len(values) == 0 {
		return
	}
	var strs []any
	allStrings := gtype == "STRING"
	for _, v := range values {
		s, isString := v.(string)
		if !isString {
			if v == nil {
				continue
			}
			allStrings = false
			break
		}
		strs = append(strs, s)
	}
	if allStrings && len(strs) > 0 {
		out["enum"] = strs
		return
	}
	var shown []string
	for _, v := range values {
		b, _ := json.Marshal(v)
		shown = append(shown, string(b))
	}
	note := "One of: " + strings.Join(shown, ", ") + "."
	if d, _ := out["description"].(string); d != "" {
		note = d + " " + note
	}
	out["description"] = note
}

// flatten resolves $ref and merges allOf, so the rest only sees plain
// keywords. refs is how many $refs enclose m; used is how many flatten
// inlined.
func (t *translator) flatten(m map[string]any, refs int) (_ map[string]any, used int, ok bool) {
	for {
		ref, hasRef := m["$ref"].(string)
		if !hasRef {
			break
		}
		if refs+used >= maxRefDepth {
			return nil, used, false
		}
		target, found := t.resolve(ref)
		if !found {
			return nil, used, false
		}
		merged := map[string]any{}
		for k, v := range target {
			merged[k] = v
		}
		for k, v := range m {
			if k != "$ref" {
				merged[k] = v
			}
		}
		m = merged
		used++
	}
	all, isList := m["allOf"].([]any)
	if !isList {
		return m, used, true
	}
	merged := map[string]any{}
	for k, v := range m {
		if k != "allOf" {
			merged[k] = v
		}
	}
	for _, sub := range all {
		sm, isMap := sub.(map[string]any)
		if !isMap {
			continue
		}
		sm, n, flat := t.flatten(sm, refs+used)
		if !flat {
			return nil, used, false
		}
		used += n
		for k, v := range sm {
			switch k {
			case "properties":
				props, _ := merged["properties"].(map[string]any)
				joined := map[string]any{}
				for pk, pv := range props {
					joined[pk] = pv
				}
				if sp, ok := v.(map[string]any); ok {
					for pk, pv := range sp {
						joined[pk] = pv
					}
				}
				merged["properties"] = joined
			case "required":
				have, _ := merged["required"].([]any)
				if add, ok := v.([]any); ok {
					merged["required"] = append(append([]any(nil), have...), add...)
				}
			default:
				if _, set := merged[k]; !set {
					merged[k] = v
				}
			}
		}
	}
	return merged, used, true
}

// resolve follows a local JSON pointer ("#/$defs/x", "#/definitions/x").
func (t *translator) resolve(ref string) (map[string]any, bool) {
	if !strings.HasPrefix(ref, "#") {
		return nil, false
	}
	cur := t.root
	for _, tok := range strings.Split(strings.TrimPrefix(ref, "#"), "/") {
		if tok == "" {
			continue
		}
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[tok]; !ok {
			return nil, false
		}
	}
	m, ok := cur.(map[string]any)
	return m, ok
}

// typesOf reads "type" as a list without "null", and whether null was in it.
func typesOf(m map[string]any) (types []string, nullable bool) {
	switch v := m["type"].(type) {
	case string:
		if v == "null" {
			return nil, true
		}
		return []string{v}, false
	case []any:
		for _, x := range v {
			s, _ := x.(string)
			if s == "null" {
				nullable = true
			} else if s != "" {
				types = append(types, s)
			}
		}
	}
	if n, ok := m["nullable"].(bool); ok && n {
		nullable = true
	}
	sort.Strings(types)
	return types, nullable
}

// alternatives returns anyOf, or oneOf (which Gemini lacks; tavo still
// checks that exactly one matches).
func alternatives(m map[string]any) []any {
	if a, ok := m["anyOf"].([]any); ok && len(a) > 0 {
		return a
	}
	if a, ok := m["oneOf"].([]any); ok && len(a) > 0 {
		return a
	}
	return nil
}

func isNullSchema(m map[string]any) bool {
	t, ok := m["type"].(string)
	return ok && t == "null" && len(m) <= 2
}

// copyCount copies integer limits as the strings the API's int64 fields are.
func copyCount(m, out map[string]any, keys ...string) {
	for _, k := range keys {
		if f, ok := m[k].(float64); ok && f >= 0 && f == float64(int64(f)) {
			out[k] = strconv.FormatInt(int64(f), 10)
		}
	}
}

// bounds copies numeric limits, loosening exclusive ones to inclusive (tavo
// still enforces the exclusive bound).
func bounds(m, out map[string]any) {
	for _, b := range []struct{ plain, exclusive string }{{"minimum", "exclusiveMinimum"}, {"maximum", "exclusiveMaximum"}} {
		if v, ok := m[b.plain].(float64); ok {
			out[b.plain] = v
		}
		if v, ok := m[b.exclusive].(float64); ok {
			out[b.plain] = v
		}
	}
}
