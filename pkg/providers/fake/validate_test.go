package fake

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/providers"
)

func fixturesOrSkip(t *testing.T) string {
	t.Helper()
	dir, err := FixturesDir()
	if errors.Is(err, ErrNoFixtures) {
		t.Skipf("skipping: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestValidateRequestFixtures(t *testing.T) {
	dir := fixturesOrSkip(t)
	for _, tt := range []struct {
		protocol providers.Protocol
		file     string
	}{
		{providers.ProtocolOpenAI, "openai-chat"},
		{providers.ProtocolOpenAIResponses, "openai-responses"},
		{providers.ProtocolAnthropic, "anthropic"},
		{providers.ProtocolGemini, "gemini"},
	} {
		t.Run(string(tt.protocol), func(t *testing.T) {
			valid, err := os.ReadFile(filepath.Join(dir, "requests", tt.file+".valid.json"))
			if err != nil {
				t.Fatal(err)
			}
			invalid, err := os.ReadFile(filepath.Join(dir, "requests", tt.file+".invalid.json"))
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			if err := ValidateRequest(tt.protocol, valid); err != nil {
				t.Fatalf("valid request rejected: %v", err)
			}
			t.Logf("compile+validate took %v", time.Since(start))
			if err := ValidateRequest(tt.protocol, invalid); err == nil {
				t.Fatal("invalid request accepted")
			}
		})
	}
}

func TestValidateRequestPinpointsProblem(t *testing.T) {
	fixturesOrSkip(t)
	err := ValidateRequest(providers.ProtocolOpenAI, []byte(`{"model":"m","messages":[{"role":"user","content":"hi"}],"temperature":"hot"}`))
	if err == nil || !strings.Contains(err.Error(), "temperature") {
		t.Fatalf("err = %v, want one naming temperature", err)
	}
	if err := ValidateRequest(providers.ProtocolOpenAI, []byte(`{"model":"m","messages":[{"role":"user","content":"hi"}],"max_completion_tokens":null}`)); err != nil {
		t.Fatalf("nullable field rejected: %v", err)
	}
	if err := ValidateRequest("nope", []byte(`{}`)); err == nil {
		t.Fatal("unknown protocol accepted")
	}
	if err := ValidateRequest(providers.ProtocolOpenAI, []byte(`{`)); err == nil {
		t.Fatal("broken JSON accepted")
	}
}

func TestFromOpenAPI(t *testing.T) {
	in := map[string]any{
		"properties": map[string]any{
			"a": map[string]any{"type": "integer", "nullable": true},
			"b": map[string]any{"$ref": "#/x", "nullable": true},
			"c": map[string]any{"type": "string", "enum": []any{"x"}, "nullable": true},
			"d": map[string]any{"type": "number", "minimum": 0.0, "exclusiveMinimum": true},
			"e": map[string]any{"type": "number", "maximum": 1.0, "exclusiveMaximum": false},
		},
	}
	out := fromOpenAPI(in).(map[string]any)["properties"].(map[string]any)
	if got := out["a"].(map[string]any)["type"]; len(got.([]any)) != 2 {
		t.Fatalf("a.type = %v", got)
	}
	if _, ok := out["b"].(map[string]any)["anyOf"]; !ok {
		t.Fatalf("b = %v, want anyOf wrapper", out["b"])
	}
	if enum := out["c"].(map[string]any)["enum"].([]any); len(enum) != 2 || enum[1] != nil {
		t.Fatalf("c.enum = %v", enum)
	}
	d := out["d"].(map[string]any)
	if d["exclusiveMinimum"] != 0.0 || d["minimum"] != nil {
		t.Fatalf("d = %v", d)
	}
	e := out["e"].(map[string]any)
	if _, ok := e["exclusiveMaximum"]; ok || e["maximum"] != 1.0 {
		t.Fatalf("e = %v", e)
	}
}

func TestFromOpenAPIRecursiveRef(t *testing.T) {
	in := map[string]any{"components": map[string]any{"schemas": map[string]any{"F": map[string]any{
		"$recursiveAnchor": true,
		"properties":       map[string]any{"filters": map[string]any{"items": map[string]any{"$recursiveRef": "#"}}},
	}}}}
	out := fromOpenAPI(in).(map[string]any)["components"].(map[string]any)["schemas"].(map[string]any)["F"].(map[string]any)
	if _, ok := out["$recursiveAnchor"]; ok {
		t.Fatal("$recursiveAnchor kept")
	}
	items := out["properties"].(map[string]any)["filters"].(map[string]any)["items"].(map[string]any)
	if items["$ref"] != "#/components/schemas/F" {
		t.Fatalf("items = %v", items)
	}
}
