package providertest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// MustError fails t unless err is a *providers.Error itself (not wrapped)
// with code, and neither its text nor its message shows secret (the API key
// the client was given; "" checks nothing). It returns that error so the
// test can look further.
func MustError(t testing.TB, err error, code providers.ErrorCode, secret string) *providers.Error {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %s", code)
	}
	pe, ok := err.(*providers.Error)
	if !ok {
		t.Fatalf("error %T %v is not *providers.Error", err, err)
	}
	if pe.Code != code {
		t.Fatalf("code %s (%v), want %s", pe.Code, err, code)
	}
	if secret != "" && (strings.Contains(fmt.Sprint(err), secret) || strings.Contains(pe.Message, secret)) {
		t.Fatalf("error leaks the key: %v", err)
	}
	return pe
}
