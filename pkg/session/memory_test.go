package session

import (
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/store"
)

func TestMemoryPrompt(t *testing.T) {
	for _, m := range []store.Memory{
		{},
		{Enabled: false, Items: []string{"kept but off"}},
		{Enabled: true},
		{Enabled: true, Items: []string{"  ", ""}},
	} {
		if got := MemoryPrompt(m); got != "" {
			t.Errorf("%+v: %q, want nothing", m, got)
		}
	}
	got := MemoryPrompt(store.Memory{Enabled: true, Items: []string{"likes tea", " ", "two\nlines"}})
	if !strings.HasPrefix(got, memoryPreamble+"\n\n1. likes tea\n2. two\n   lines") || strings.HasSuffix(got, "\n") {
		t.Fatalf("prompt = %q", got)
	}
}
