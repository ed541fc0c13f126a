package events

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestDocsExamplesValidate keeps docs/events.md honest: every example line
// must match the schema, and every event type needs a section with an example.
func TestDocsExamplesValidate(t *testing.T) {
	doc, err := os.ReadFile("../../docs/events.md")
	if err != nil {
		t.Fatal(err)
	}
	examples := map[Type]int{}
	sc := bufio.NewScanner(bytes.NewReader(doc))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		if !bytes.HasPrefix(line, []byte(`{"v":`)) {
			continue
		}
		if err := Validate(line); err != nil {
			t.Errorf("docs/events.md:%d: %v", n, err)
			continue
		}
		var env Envelope
		if err := json.Unmarshal(line, &env); err != nil {
			t.Fatalf("docs/events.md:%d: %v", n, err)
		}
		examples[env.Type]++
	}
	for _, ty := range AllTypes() {
		if examples[ty] == 0 {
			t.Errorf("docs/events.md has no example line for %s", ty)
		}
		// Paired types share a heading: "### ask.question and ask.answer".
		if !strings.Contains(string(doc), "### "+string(ty)) && !strings.Contains(string(doc), " and "+string(ty)+"\n") {
			t.Errorf("docs/events.md has no section for %s", ty)
		}
	}
}
