package providers

import (
	"slices"
	"strings"
	"testing"
)

func TestAllProtocolsInTableOrder(t *testing.T) {
	want := []Protocol{ProtocolOpenAI, ProtocolOpenAIResponses, ProtocolAnthropic, ProtocolGemini}
	if got := AllProtocols(); !slices.Equal(got, want) {
		t.Fatalf("AllProtocols() = %v, want %v", got, want)
	}
	if got := ProtocolNames(); !slices.Equal(got, []string{"openai", "openai-responses", "anthropic", "gemini"}) {
		t.Fatalf("ProtocolNames() = %v", got)
	}
	for _, p := range want {
		info, ok := Lookup(p)
		if !ok || info.Protocol != p || info.DefaultBaseURL == "" || info.BaseURLEnv == "" || len(info.KeyEnvs) == 0 || info.Auth.Header == "" {
			t.Errorf("Lookup(%s) = %+v, %v", p, info, ok)
		}
		if info.Version != "" && info.hasVersion == nil {
			t.Errorf("%s: a version without the rule that recognises one", p)
		}
	}
	if _, ok := Lookup("cohere"); ok {
		t.Fatal("Lookup(cohere) found an entry")
	}
}

func TestLookupReturnsACopy(t *testing.T) {
	info, _ := Lookup(ProtocolAnthropic)
	info.Header["Anthropic-Version"] = "changed"
	info.KeyEnvs[0] = "CHANGED"
	again, _ := Lookup(ProtocolAnthropic)
	if again.Header["Anthropic-Version"] != "2023-06-01" || again.KeyEnvs[0] != "ANTHROPIC_API_KEY" {
		t.Fatalf("the table changed: %+v", again)
	}
}

func TestProtocolEndpoint(t *testing.T) {
	for _, tt := range []struct {
		proto      Protocol
		base, path string
		query      map[string]string
		want       string
	}{
		{ProtocolOpenAI, "", "/chat/completions", nil, "https://api.openai.com/v1/chat/completions"},
		{ProtocolOpenAIResponses, "http://127.0.0.1:9/v1/", "/responses", map[string]string{"k": "v"}, "http://127.0.0.1:9/v1/responses?k=v"},
		{ProtocolAnthropic, "", "/messages", nil, "https://api.anthropic.com/v1/messages"},
		{ProtocolAnthropic, "https://gw.example/v1/", "/models", nil, "https://gw.example/v1/models"},
		{ProtocolAnthropic, "https://gw.example/v1beta", "/models", nil, "https://gw.example/v1beta/v1/models"},
		{ProtocolGemini, "", "/models", nil, "https://generativelanguage.googleapis.com/v1beta/models"},
		{ProtocolGemini, "https://gw.example/g/v1", "/models", map[string]string{"key": "x"}, "https://gw.example/g/v1/models?key=x"},
		{ProtocolGemini, "https://gw.example/v1alpha/", "/models", nil, "https://gw.example/v1alpha/models"},
	} {
		info, _ := Lookup(tt.proto)
		if got, err := info.Endpoint(tt.base, tt.path, tt.query); err != nil || got != tt.want {
			t.Errorf("%s Endpoint(%q, %q) = %q, %v; want %q", tt.proto, tt.base, tt.path, got, err, tt.want)
		}
	}
	info, _ := Lookup(ProtocolOpenAIResponses)
	if _, err := info.Endpoint("127.0.0.1:9", "/responses", nil); err == nil || !strings.Contains(err.Error(), "openai-responses base URL") || !strings.Contains(err.Error(), info.DefaultBaseURL) {
		t.Fatalf("relative base: err = %v", err)
	}
}

func TestModelsRequest(t *testing.T) {
	cfg := Config{BaseURL: "https://gw.example/v1/", APIKey: "k", Headers: map[string]string{"anthropic-version": "2024-01-01"}, Query: map[string]string{"tenant": "a"}}
	target, h, err := ModelsRequest(ProtocolAnthropic, cfg)
	if err != nil || target != "https://gw.example/v1/models?tenant=a" {
		t.Fatalf("URL = %q, %v", target, err)
	}
	if h.Get("Anthropic-Version") != "2024-01-01" || h.Get("X-Api-Key") != "k" || h.Get("Authorization") != "" || h.Get("Accept") != "application/json" {
		t.Fatalf("header = %v", h)
	}
	cfg = Config{BaseURL: "https://res.example/openai", APIKey: "k", AuthHeader: "api-key"}
	target, h, _ = ModelsRequest(ProtocolOpenAI, cfg)
	if target != "https://res.example/openai/models" || h.Get("Api-Key") != "k" || h.Get("Authorization") != "" {
		t.Fatalf("azure: %q %v", target, h)
	}
	if _, _, err := ModelsRequest("cohere", cfg); err == nil || !strings.Contains(err.Error(), `"cohere" is not supported (use openai, openai-responses, anthropic or gemini)`) {
		t.Fatalf("unknown protocol: %v", err)
	}
	if _, _, err := ModelsRequest(ProtocolGemini, Config{BaseURL: "/v1"}); err == nil {
		t.Fatal("a relative base URL passed")
	}
}
