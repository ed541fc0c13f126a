package providertest

import (
	"errors"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/fake"
)

// CheckPaths fails t for each gjson path of want whose value in j, as a
// string, is not the one wanted.
func CheckPaths(t *testing.T, j gjson.Result, want map[string]string) {
	t.Helper()
	for path, want := range want {
		if got := j.Get(path).String(); got != want {
			t.Errorf("%s = %q, want %q", path, got, want)
		}
	}
}

// MatchesOfficialSchema fails t when body is not valid against the
// provider's official request schema, and skips it when the schemas are
// not at hand.
func MatchesOfficialSchema(t *testing.T, protocol providers.Protocol, body []byte) {
	t.Helper()
	err := fake.ValidateRequest(protocol, body)
	if errors.Is(err, fake.ErrNoFixtures) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatalf("%s\n%v", body, err)
	}
}

// Encode encodes req with a codec's encodeRequest, fails t if that fails,
// and returns the body parsed for CheckPaths (the body's text is its Raw).
func Encode(t *testing.T, encode func(*providers.Request) ([]byte, error), req *providers.Request) gjson.Result {
	t.Helper()
	body, err := encode(req)
	if err != nil {
		t.Fatal(err)
	}
	return gjson.ParseBytes(body)
}
