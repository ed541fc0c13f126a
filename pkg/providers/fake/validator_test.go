package fake

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers"
)

func TestValidatorCachesAndValidates(t *testing.T) {
	dir := fixturesOrSkip(t)
	v := &Validator{}
	for _, p := range []struct {
		protocol providers.Protocol
		file     string
	}{{providers.ProtocolAnthropic, "anthropic"}, {providers.ProtocolGemini, "gemini"}, {providers.ProtocolOpenAIResponses, "openai-responses"}} {
		valid, _ := os.ReadFile(filepath.Join(dir, "requests", p.file+".valid.json"))
		invalid, _ := os.ReadFile(filepath.Join(dir, "requests", p.file+".invalid.json"))
		for range 2 {
			if err := v.Validate(p.protocol, valid); err != nil {
				t.Fatalf("%s: valid request rejected: %v", p.protocol, err)
			}
			if err := v.Validate(p.protocol, invalid); err == nil {
				t.Fatalf("%s: invalid request accepted", p.protocol)
			}
		}
	}
	if len(v.schemas) != 3 {
		t.Fatalf("%d schemas compiled, want one per protocol", len(v.schemas))
	}
	if err := v.Validate("bogus", []byte(`{}`)); err == nil {
		t.Fatal("unknown protocol accepted")
	}
}
