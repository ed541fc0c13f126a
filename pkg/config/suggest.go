package config

import (
	"reflect"
	"slices"
	"strings"
)

// suggestKey returns key with its first unknown part replaced by the
// closest known key (within two edits), found by walking Config's TOML tags
// along key, or "" when nothing is close.
func suggestKey(key []string) string {
	t := reflect.TypeFor[Config]()
	for i, part := range key {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch t.Kind() {
		case reflect.Map:
			t = t.Elem() // the part is a user-chosen name
			continue
		case reflect.Struct:
		default:
			return ""
		}
		if f, ok := fieldByTag(t, part); ok {
			t = f.Type
			continue
		}
		best := closestTag(t, part)
		if best == "" {
			return ""
		}
		fixed := slices.Clone(key)
		fixed[i] = best
		return strings.Join(fixed, ".")
	}
	return ""
}

func closestTag(t reflect.Type, part string) string {
	best, bestDist := "", 3
	for i := range t.NumField() {
		name := tagName(t.Field(i))
		if name == "" {
			continue
		}
		if d := EditDistance(strings.ToLower(part), name); d < bestDist {
			best, bestDist = name, d
		}
	}
	return best
}

func fieldByTag(t reflect.Type, name string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		if tagName(t.Field(i)) == name {
			return t.Field(i), true
		}
	}
	return reflect.StructField{}, false
}

func tagName(f reflect.StructField) string {
	if !f.IsExported() {
		return ""
	}
	name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
	return name
}

// EditDistance is the Levenshtein distance between a and b, in bytes (the
// names it compares, config keys and command names, are ASCII). It ranks
// "did you mean" suggestions here and in cmd.
func EditDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
