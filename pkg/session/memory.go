package session

import (
	"strconv"
	"strings"

	"github.com/tavo-cli/tavo/pkg/store"
)

// memoryPreamble introduces the notes. It tells the model where they come
// from and that the conversation wins over them, since notes go stale.
const memoryPreamble = "Long-term memory: notes kept across conversations, saved earlier by the user or by you " +
	"with the memory tools. Use them when they are relevant; they may be out of date, and what the user says " +
	"in this conversation takes precedence."

// MemoryPrompt returns the text to add to the system prompt for m: the
// notes, numbered, under a short preamble. It is "" when memory is disabled
// or holds no notes, so a caller can add it unconditionally. Blank notes
// are skipped and a note's further lines are indented under its number.
func MemoryPrompt(m store.Memory) string {
	if !m.Enabled {
		return ""
	}
	var b strings.Builder
	n := 0
	for _, it := range m.Items {
		it = strings.TrimSpace(it)
		if it == "" {
			continue
		}
		if n == 0 {
			b.WriteString(memoryPreamble)
			b.WriteString("\n")
		}
		n++
		num := strconv.Itoa(n) + ". "
		b.WriteString("\n")
		b.WriteString(num)
		b.WriteString(strings.ReplaceAll(it, "\n", "\n"+strings.Repeat(" ", len(num))))
	}
	return b.String()
}
