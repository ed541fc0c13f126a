package open_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/store/open"
)

func TestEmptyURLIsTheEmbeddedStore(t *testing.T) {
	s, err := open.Open(context.Background(), "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Engine() != "sqlite" || !strings.HasSuffix(s.Location(), store.FileName) {
		t.Fatalf("engine %s at %s", s.Engine(), s.Location())
	}
}

func TestUnknownSchemeNamesNoPassword(t *testing.T) {
	for _, u := range []string{"mysql://root:hunter2@db/x", "hunter2", "sqlite://hunter2"} {
		_, err := open.Open(context.Background(), u, t.TempDir())
		if !errors.Is(err, store.ErrInvalid) || strings.Contains(err.Error(), "hunter2") {
			t.Fatalf("%v", err)
		}
	}
	if r := open.Redact("postgres://u:hunter2@h/db"); strings.Contains(r, "hunter2") {
		t.Fatal(r)
	}
}
