package openai

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/providertest"
)

const strictCity = `{"type":"object","properties":{"city":{"type":"string"},"temp":{"anyOf":[{"type":"number"},{"type":"null"}]}},"required":["city","temp"],"additionalProperties":false}`

func TestResponseFormat(t *testing.T) {
	for _, tt := range []struct {
		name, schemaName, schema, wantName string
		strict                             bool
	}{
		{"strict subset", "weather report", strictCity, "weather_report", true},
		{"optional property", "", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`, DefaultSchemaName, false},
		{"open object", "x", `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`, "x", false},
		{"unsupported keyword", "x", `{"type":"object","properties":{"a":{"type":"string","minLength":1}},"required":["a"],"additionalProperties":false}`, "x", false},
		{"array root", "x", `{"type":"array","items":{"type":"string"}}`, "x", false},
		{"nested closed objects and defs", "x", `{"type":"object","$defs":{"p":{"type":"object","properties":{"x":{"type":"integer"}},"required":["x"],"additionalProperties":false}},"properties":{"pts":{"type":"array","items":{"$ref":"#/$defs/p"}}},"required":["pts"],"additionalProperties":false}`, "x", true},
		{"open nested object", "x", `{"type":"object","properties":{"o":{"type":"object","properties":{}}},"required":["o"],"additionalProperties":false}`, "x", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req := codec.Request(false)
			req.Schema = &providers.OutputSchema{Name: tt.schemaName, Schema: []byte(tt.schema)}
			body, err := encodeRequest(req)
			if err != nil {
				t.Fatal(err)
			}
			rf := gjson.GetBytes(body, "response_format")
			if rf.Get("type").String() != "json_schema" || rf.Get("json_schema.name").String() != tt.wantName ||
				rf.Get("json_schema.strict").Bool() != tt.strict || rf.Get("json_schema.schema").Raw != tt.schema {
				t.Fatalf("response_format %s", rf.Raw)
			}
		})
	}
	req := codec.Request(false)
	req.Schema = &providers.OutputSchema{Schema: []byte("{")}
	if _, err := encodeRequest(req); err == nil {
		t.Fatal("broken schema accepted")
	}
}

func TestSchemaName(t *testing.T) {
	for in, want := range map[string]string{"": "answer", "ok-name_1": "ok-name_1", "a b/c": "a_b_c", "é": "_", strings.Repeat("x", 80): strings.Repeat("x", 64)} {
		if got := SchemaName(in); got != want {
			t.Errorf("SchemaName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSchemaRequestMatchesOfficialSchema(t *testing.T) {
	req := codec.Request(true)
	req.Schema = &providers.OutputSchema{Name: "weather", Schema: []byte(strictCity)}
	providertest.MatchesOfficialSchema(t, providers.ProtocolOpenAI, codec.Sent(t, req).Body)
}

func TestClassifyEnvelope(t *testing.T) {
	for _, tt := range []struct {
		message, typ, code string
		want               providers.ErrorCode
	}{
		{"Rate limit reached", "", "rate_limit_exceeded", providers.ErrRateLimited},
		{"too long", "", "context_length_exceeded", providers.ErrContextOverflow},
		{"", "server_error", "", providers.ErrProviderError},
		{"", "", "", providers.ErrProviderError},
		{" ", " ", "\t", providers.ErrProviderError},
	} {
		e := ClassifyEnvelope(tt.message, tt.typ, tt.code, true)
		if e.Code != tt.want || e.Message == "" || e.Status != 0 {
			t.Errorf("%+v -> %+v", tt, e)
		}
	}
	if e := ClassifyHTTP(&providers.HTTPFailure{Status: 401, Body: []byte(`{"error":{"message":"bad key"}}`)}, false); e.Code != providers.ErrAuthFailed {
		t.Errorf("ClassifyHTTP 401 -> %s", e.Code)
	}
}
