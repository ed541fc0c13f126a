package main

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// plainText strips Markdown to the text a reader sees: link and image text
// stay, their URLs go, as do heading, list, quote and table markers, code
// fences, emphasis and backslash escapes. Code inside fences stays verbatim.
func plainText(md string) string {
	var b strings.Builder
	b.Grow(len(md))
	fence := ""
	for _, line := range strings.Split(md, "\n") {
		t := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				fence = ""
			} else {
				b.WriteString(line)
			}
			b.WriteByte('\n')
			continue
		}
		if f := fenceOpen(t); f != "" {
			fence = f
			b.WriteByte('\n')
			continue
		}
		if isRule(t) {
			b.WriteByte('\n')
			continue
		}
		inline(&b, blockPrefix(t))
		b.WriteByte('\n')
	}
	return b.String()
}

// fenceOpen returns the fence a line opens (``` or ~~~, or longer).
func fenceOpen(t string) string {
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(t) && t[n] == c {
			n++
		}
		if n >= 3 {
			return t[:n]
		}
	}
	return ""
}

// isRule reports a thematic break, a setext underline or a table's
// delimiter row: lines of markup only.
func isRule(t string) bool {
	if t == "" {
		return false
	}
	dashes := 0
	for _, r := range t {
		switch r {
		case '-', '=', '*', '_':
			dashes++
		case ':', '|', ' ':
		default:
			return false
		}
	}
	return dashes >= 3 || strings.Contains(t, "|") && dashes > 0
}

// blockPrefix drops the markers that open a line: quotes, a heading's
// hashes, a list bullet or number.
func blockPrefix(t string) string {
	for {
		switch {
		case strings.HasPrefix(t, ">"):
			t = strings.TrimSpace(t[1:])
			continue
		case strings.HasPrefix(t, "#"):
			n := strings.IndexFunc(t, func(r rune) bool { return r != '#' })
			if n > 0 && n <= 6 && t[n] == ' ' {
				return strings.TrimSpace(t[n:])
			}
		case len(t) > 1 && strings.ContainsRune("-*+", rune(t[0])) && t[1] == ' ':
			t = strings.TrimSpace(t[2:])
			continue
		default:
			n := strings.IndexFunc(t, func(r rune) bool { return r < '0' || r > '9' })
			if n > 0 && n <= 9 && n+1 < len(t) && (t[n] == '.' || t[n] == ')') && t[n+1] == ' ' {
				t = strings.TrimSpace(t[n+2:])
				continue
			}
		}
		return t
	}
}

// inline writes s without inline markup.
func inline(b *strings.Builder, s string) {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && isPunct(s[i+1]):
			b.WriteByte(s[i+1])
			i += 2
			continue
		case c == '!' && i+1 < len(s) && s[i+1] == '[':
			i++
			continue
		case c == '[':
			i++
			continue
		case c == ']':
			i++
			if i < len(s) && s[i] == '(' {
				i = skipDestination(s, i)
			}
			continue
		case c == '`':
			i++
			continue
		case c == '|':
			b.WriteByte(' ')
			i++
			continue
		case c == '<':
			if rest := s[i:]; strings.HasPrefix(rest, "<br />") || strings.HasPrefix(rest, "<br>") {
				b.WriteByte(' ')
				i += strings.IndexByte(rest, '>') + 1
				continue
			}
			if end := strings.IndexByte(s[i:], '>'); end > 0 && (strings.HasPrefix(s[i+1:], "http://") || strings.HasPrefix(s[i+1:], "https://") || strings.HasPrefix(s[i+1:], "mailto:")) && !strings.ContainsAny(s[i+1:i+end], " <") {
				b.WriteString(s[i+1 : i+end])
				i += end + 1
				continue
			}
		case c == '*' || c == '_' || c == '~':
			j := i
			for j < len(s) && s[j] == c {
				j++
			}
			if c != '~' || j-i >= 2 {
				before, _ := utf8.DecodeLastRuneInString(s[:i])
				after, _ := utf8.DecodeRuneInString(s[j:])
				if i == 0 || j == len(s) || !isWord(before) || !isWord(after) {
					i = j
					continue
				}
			}
			b.WriteString(s[i:j])
			i = j
			continue
		}
		b.WriteByte(c)
		i++
	}
}

// skipDestination returns the index after a link destination "(…)" that
// starts at s[i], nested parentheses and escapes included.
func skipDestination(s string, i int) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return i
}

func isPunct(c byte) bool {
	return c < 0x80 && unicode.IsPunct(rune(c)) || strings.IndexByte("$+<=>^`|~", c) >= 0
}

func isWord(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
