package fetch

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"strings"
)

// normalizeText ends lines with \n only and the text with one newline, and
// drops NUL bytes, which no reader wants.
func normalizeText(s string) string {
	if strings.IndexByte(s, 0) >= 0 {
		s = strings.ReplaceAll(s, "\x00", "")
	}
	if strings.IndexByte(s, '\r') >= 0 {
		s = strings.ReplaceAll(s, "\r\n", "\n")
		s = strings.ReplaceAll(s, "\r", "\n")
	}
	s = strings.TrimRight(s, " \t\n")
	s = strings.TrimLeft(s, "\n")
	if s == "" {
		return ""
	}
	return s + "\n"
}

// markdownDoc passes Markdown through; its title is the first level-one
// ATX heading outside code fences.
func markdownDoc(b []byte) *Conversion {
	md := normalizeText(string(b))
	return &Conversion{Title: markdownTitle(md), Markdown: md}
}

// maxTitleScan bounds the lines searched for a Markdown title.
const maxTitleScan = 2000

func markdownTitle(md string) string {
	inFence := false
	for i, line := range strings.SplitN(md, "\n", maxTitleScan+1) {
		if i == maxTitleScan {
			break
		}
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			inFence = !inFence
			continue
		}
		if !inFence && strings.HasPrefix(t, "# ") {
			return cleanSpace(strings.TrimRight(strings.TrimSpace(t[2:]), "#"))
		}
	}
	return ""
}

// jsonDoc pretty-prints JSON in a fenced block; a body that does not parse
// is shown as text with a warning.
func jsonDoc(b []byte) *Conversion {
	var buf bytes.Buffer
	buf.Grow(len(b) + len(b)/4)
	if err := json.Indent(&buf, bytes.TrimSpace(b), "", "  "); err != nil {
		return &Conversion{
			Markdown: fence(normalizeText(string(b)), ""),
			Warnings: []Warning{{Code: WarnInvalidJSON, Message: "the body was served as JSON but does not parse (" + err.Error() + "); it is shown as text"}},
		}
	}
	return &Conversion{Markdown: fence(buf.String(), "json")}
}

// xmlDoc shows XML in a fenced block; feeds and documents with a <title>
// get it as their title.
func xmlDoc(b []byte) *Conversion {
	text := normalizeText(string(b))
	return &Conversion{Title: xmlTitle(b), Markdown: fence(text, "xml")}
}

// maxXMLTokens bounds the search for a <title>.
const maxXMLTokens = 400

func xmlTitle(b []byte) string {
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict = false
	// The body is already UTF-8 whatever its declaration says.
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	for i := 0; i < maxXMLTokens; i++ {
		tok, err := d.Token()
		if err != nil {
			return ""
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "title" {
			var s string
			if err := d.DecodeElement(&s, &se); err != nil {
				return ""
			}
			return cleanSpace(s)
		}
	}
	return ""
}

// fence wraps text in a code fence longer than any backtick run inside it.
func fence(text, lang string) string {
	longest, run := 0, 0
	for i := 0; i < len(text); i++ {
		if text[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	marks := strings.Repeat("`", max(3, longest+1))
	text = strings.TrimRight(text, "\n")
	var b strings.Builder
	b.Grow(len(text) + 2*len(marks) + len(lang) + 3)
	b.WriteString(marks)
	b.WriteString(lang)
	b.WriteByte('\n')
	b.WriteString(text)
	if text != "" {
		b.WriteByte('\n')
	}
	b.WriteString(marks)
	b.WriteByte('\n')
	return b.String()
}
