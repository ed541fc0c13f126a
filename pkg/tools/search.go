package tools

import (
	"sort"
	"strings"
	"unicode"
)

// Search ranks the tools whose name, ID or description shares words with
// query and returns at most limit specs (all matches when limit ≤ 0), best
// first, ties by name. Tools for which skip returns true are left out. The
// ranking is deliberately simple and deterministic: a query word found among
// the words of a tool's name weighs most, then its ID, then its description;
// a word that is a prefix of another (three letters or more) counts half; a
// query equal to a tool's name comes first.
func (c *Catalog) Search(query string, limit int, skip func(name string) bool) []Spec {
	words := searchWords(query)
	whole := strings.ToLower(strings.TrimSpace(query))
	type scored struct {
		spec  Spec
		score int
	}
	var hits []scored
	for _, s := range c.Specs() {
		if skip != nil && skip(s.Name) {
			continue
		}
		score := 0
		if whole != "" && (whole == strings.ToLower(s.Name) || whole == strings.ToLower(s.ID)) {
			score += 100
		}
		name := searchWords(s.Name)
		var id []string
		if s.ID != s.Name {
			id = searchWords(s.ID)
		}
		desc := searchWords(s.Description)
		for _, w := range words {
			score += wordScore(w, name, 6) + wordScore(w, id, 4) + wordScore(w, desc, 2)
		}
		if score > 0 {
			hits = append(hits, scored{s, score})
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].score != hits[j].score {
			return hits[i].score > hits[j].score
		}
		return hits[i].spec.Name < hits[j].spec.Name
	})
	if limit > 0 && len(hits) > limit {
		hits = hits[:limit]
	}
	out := make([]Spec, len(hits))
	for i, h := range hits {
		out[i] = h.spec
	}
	return out
}

// wordScore is weight when w is among words, half of it when one is a prefix
// of the other, else 0.
func wordScore(w string, words []string, weight int) int {
	best := 0
	for _, x := range words {
		if x == w {
			return weight
		}
		if len(w) >= 3 && len(x) >= 3 && (strings.HasPrefix(x, w) || strings.HasPrefix(w, x)) {
			best = weight / 2
		}
	}
	return best
}

// searchWords splits text into distinct lower-case words, drops words that
// carry no meaning for search and a plural "s".
func searchWords(text string) []string {
	fields := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	out := fields[:0]
	seen := map[string]bool{}
	for _, f := range fields {
		if stopWord(f) {
			continue
		}
		if len(f) > 3 && strings.HasSuffix(f, "s") && !strings.HasSuffix(f, "ss") {
			f = f[:len(f)-1]
		}
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// stopWord reports words too common to rank by.
func stopWord(w string) bool {
	switch w {
	case "a", "an", "the", "to", "of", "in", "on", "for", "and", "or", "with", "from", "by", "at",
		"is", "are", "be", "it", "its", "this", "that", "my", "me", "i", "you", "your", "can",
		"do", "how", "what", "use", "tool", "tools", "tavo":
		return true
	}
	return false
}
