package config

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers"
)

func testConfig() *Config {
	c := &Config{DefaultProfile: "work"}
	c.PutProfile("work", &Profile{Protocol: "openai", Model: "gpt-4o", APIKeyEnv: "WORK_KEY", MaxRounds: 9, Headers: map[string]string{"X-A": "1"}})
	c.PutProfile("local", &Profile{BaseURL: "http://localhost:11434/v1/", Model: "llama3"})
	c.PutProfile("claude", &Profile{Protocol: "anthropic", Model: "claude-sonnet-4-5"})
	c.PutProfile("router", &Profile{BaseURL: "https://openrouter.ai/api/v1", Model: "x/y"})
	c.PutProfile("azure", &Profile{BaseURL: "https://r.openai.azure.com/openai/deployments/d", APIKey: "sk-file-SECRET", AuthHeader: "api-key", Query: map[string]string{"api-version": "2024-10-21"}})
	c.PutProfile("nomodel", &Profile{Protocol: "gemini"})
	return c
}

func TestResolve(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    Overrides
		env  map[string]string
		want Resolved // only the fields compared below
	}{
		{"default profile", Overrides{}, map[string]string{"WORK_KEY": "k1"},
			Resolved{ProfileName: "work", Protocol: "openai", BaseURL: "https://api.openai.com/v1", BaseURLSource: "default", Model: "gpt-4o", APIKey: "k1", KeySource: "env WORK_KEY", KeyEnv: "WORK_KEY"}},
		{"TAVO_PROFILE beats default", Overrides{}, map[string]string{"TAVO_PROFILE": "claude", "ANTHROPIC_API_KEY": "a"},
			Resolved{ProfileName: "claude", Protocol: "anthropic", BaseURL: "https://api.anthropic.com", BaseURLSource: "default", Model: "claude-sonnet-4-5", APIKey: "a", KeySource: "env ANTHROPIC_API_KEY", KeyEnv: "ANTHROPIC_API_KEY"}},
		{"flag beats TAVO_PROFILE, flags beat profile", Overrides{Profile: "work", Model: "gpt-5", BaseURL: "http://127.0.0.1:9/v1"}, map[string]string{"TAVO_PROFILE": "claude", "WORK_KEY": "k1"},
			Resolved{ProfileName: "work", Protocol: "openai", BaseURL: "http://127.0.0.1:9/v1", BaseURLSource: "flag", Model: "gpt-5", APIKey: "k1", KeySource: "env WORK_KEY", KeyEnv: "WORK_KEY"}},
		{"env base URL fills a profile gap", Overrides{Profile: "claude"}, map[string]string{"ANTHROPIC_API_KEY": "a", "ANTHROPIC_BASE_URL": "https://proxy.test/"},
			Resolved{ProfileName: "claude", Protocol: "anthropic", BaseURL: "https://proxy.test", BaseURLSource: "env ANTHROPIC_BASE_URL", Model: "claude-sonnet-4-5", APIKey: "a", KeySource: "env ANTHROPIC_API_KEY", KeyEnv: "ANTHROPIC_API_KEY"}},
		{"local server needs no key", Overrides{Profile: "local"}, nil,
			Resolved{ProfileName: "local", Protocol: "openai", BaseURL: "http://localhost:11434/v1", BaseURLSource: "profile", Model: "llama3", KeyEnv: "OPENAI_API_KEY"}},
		{"local server takes the usual key when set", Overrides{Profile: "local"}, map[string]string{"OPENAI_API_KEY": "o"},
			Resolved{ProfileName: "local", Protocol: "openai", BaseURL: "http://localhost:11434/v1", BaseURLSource: "profile", Model: "llama3", APIKey: "o", KeySource: "env OPENAI_API_KEY", KeyEnv: "OPENAI_API_KEY"}},
		{"key in the file", Overrides{Profile: "azure", Model: "gpt-4o"}, nil,
			Resolved{ProfileName: "azure", Protocol: "openai", BaseURL: "https://r.openai.azure.com/openai/deployments/d", BaseURLSource: "profile", Model: "gpt-4o", APIKey: "sk-file-SECRET", KeySource: "config", AuthHeader: "api-key"}},
		{"TAVO_MODEL fills a profile gap", Overrides{Profile: "nomodel"}, map[string]string{"TAVO_MODEL": "gemini-2.5-flash", "GOOGLE_API_KEY": "g"},
			Resolved{ProfileName: "nomodel", Protocol: "gemini", BaseURL: "https://generativelanguage.googleapis.com", BaseURLSource: "default", Model: "gemini-2.5-flash", APIKey: "g", KeySource: "env GOOGLE_API_KEY", KeyEnv: "GOOGLE_API_KEY"}},
		{"--provider beats the profile", Overrides{Profile: "work", Provider: "openai-responses"}, map[string]string{"WORK_KEY": "k1"},
			Resolved{ProfileName: "work", Protocol: "openai-responses", BaseURL: "https://api.openai.com/v1", BaseURLSource: "default", Model: "gpt-4o", APIKey: "k1", KeySource: "env WORK_KEY", KeyEnv: "WORK_KEY"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := testConfig().Resolve(tc.o, env(tc.env))
			if err != nil {
				t.Fatal(err)
			}
			got := Resolved{ProfileName: r.ProfileName, Protocol: r.Protocol, BaseURL: r.BaseURL, BaseURLSource: r.BaseURLSource, Model: r.Model,
				APIKey: r.APIKey, KeySource: r.KeySource, KeyEnv: r.KeyEnv, AuthHeader: r.AuthHeader}
			if got.ProfileName != tc.want.ProfileName || got.Protocol != tc.want.Protocol ||
				got.BaseURL != tc.want.BaseURL || got.BaseURLSource != tc.want.BaseURLSource || got.Model != tc.want.Model ||
				got.APIKey != tc.want.APIKey || got.KeySource != tc.want.KeySource || got.KeyEnv != tc.want.KeyEnv || got.AuthHeader != tc.want.AuthHeader {
				t.Fatalf("got  %s key=%q src=%q env=%q base-src=%q auth=%q\nwant %s key=%q src=%q env=%q base-src=%q auth=%q",
					&got, got.APIKey, got.KeySource, got.KeyEnv, got.BaseURLSource, got.AuthHeader,
					&tc.want, tc.want.APIKey, tc.want.KeySource, tc.want.KeyEnv, tc.want.BaseURLSource, tc.want.AuthHeader)
			}
		})
	}
}

// TestResolveModelSource pins the model order: flag > profile > TAVO_MODEL
// > the protocol's default, which applies only on the protocol's own API or
// the proxy its base-URL variable names.
func TestResolveModelSource(t *testing.T) {
	for _, tc := range []struct {
		name          string
		c             *Config
		o             Overrides
		env           map[string]string
		model, source string
	}{
		{"flag", testConfig(), Overrides{Profile: "work", Model: "m1"}, map[string]string{"WORK_KEY": "k", "TAVO_MODEL": "m3"}, "m1", "flag"},
		{"profile", testConfig(), Overrides{Profile: "work"}, map[string]string{"WORK_KEY": "k", "TAVO_MODEL": "m3"}, "gpt-4o", "profile"},
		{"env", &Config{}, Overrides{}, map[string]string{"OPENAI_API_KEY": "k", "TAVO_MODEL": "m3"}, "m3", "env TAVO_MODEL"},
		{"openai default with only a key", &Config{}, Overrides{}, map[string]string{"OPENAI_API_KEY": "k"}, "gpt-5-mini", "default"},
		{"default behind OPENAI_BASE_URL", &Config{}, Overrides{}, map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}, "gpt-5-mini", "default"},
		{"responses default", &Config{}, Overrides{Provider: "openai-responses"}, map[string]string{"OPENAI_API_KEY": "k"}, "gpt-5-mini", "default"},
		{"anthropic default", &Config{}, Overrides{}, map[string]string{"ANTHROPIC_API_KEY": "k"}, "claude-haiku-4-5", "default"},
		{"gemini default for a profile without model", testConfig(), Overrides{Profile: "nomodel"}, map[string]string{"GEMINI_API_KEY": "k"}, "gemini-2.5-flash", "default"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := tc.c.Resolve(tc.o, env(tc.env))
			if err != nil {
				t.Fatal(err)
			}
			if r.Model != tc.model || r.ModelSource != tc.source {
				t.Fatalf("model %q from %q, want %q from %q", r.Model, r.ModelSource, tc.model, tc.source)
			}
			info, _ := providers.Lookup(r.Protocol)
			if tc.source == "default" && r.Model != info.DefaultModel {
				t.Fatalf("default %q is not the table's %q", r.Model, info.DefaultModel)
			}
		})
	}
}

func TestResolveWithoutProfile(t *testing.T) {
	c := &Config{}
	for _, tc := range []struct {
		name      string
		o         Overrides
		env       map[string]string
		proto     providers.Protocol
		base, key string
		notes     int
	}{
		{"openai key", Overrides{Model: "m"}, map[string]string{"OPENAI_API_KEY": "o"}, "openai", "https://api.openai.com/v1", "o", 0},
		{"anthropic key", Overrides{Model: "m"}, map[string]string{"ANTHROPIC_API_KEY": "a"}, "anthropic", "https://api.anthropic.com", "a", 0},
		{"gemini key", Overrides{Model: "m"}, map[string]string{"GEMINI_API_KEY": "g", "GOOGLE_API_KEY": "x"}, "gemini", "https://generativelanguage.googleapis.com", "g", 0},
		{"several keys prefer openai and say so", Overrides{Model: "m"}, map[string]string{"ANTHROPIC_API_KEY": "a", "OPENAI_API_KEY": "o"}, "openai", "https://api.openai.com/v1", "o", 1},
		{"--provider picks among keys", Overrides{Model: "m", Provider: "anthropic"}, map[string]string{"ANTHROPIC_API_KEY": "a", "OPENAI_API_KEY": "o"}, "anthropic", "https://api.anthropic.com", "a", 0},
		{"env base URL", Overrides{Model: "m"}, map[string]string{"OPENAI_API_KEY": "o", "OPENAI_BASE_URL": "https://openrouter.ai/api/v1"}, "openai", "https://openrouter.ai/api/v1", "o", 0},
		{"--base-url alone means a local openai server", Overrides{Model: "m", BaseURL: "http://127.0.0.1:8080/v1"}, nil, "openai", "http://127.0.0.1:8080/v1", "", 0},
		{"ipv6 loopback", Overrides{Model: "m", BaseURL: "http://[::1]:8080/v1"}, nil, "openai", "http://[::1]:8080/v1", "", 0},
		{"model from TAVO_MODEL", Overrides{}, map[string]string{"OPENAI_API_KEY": "o", "TAVO_MODEL": "m"}, "openai", "https://api.openai.com/v1", "o", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := c.Resolve(tc.o, env(tc.env))
			if err != nil {
				t.Fatal(err)
			}
			if r.ProfileName != "" || r.Protocol != tc.proto || r.BaseURL != tc.base || r.APIKey != tc.key || len(r.Notes) != tc.notes {
				t.Fatalf("got %s key=%q notes=%q", r, r.APIKey, r.Notes)
			}
		})
	}
}

func TestResolveErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    *Config
		o    Overrides
		env  map[string]string
		want []string
	}{
		{"nothing configured", &Config{}, Overrides{Model: "m"}, nil,
			[]string{"no provider configured", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "--provider", "tavo profile set"}},
		{"unknown profile", testConfig(), Overrides{Profile: "wrk"}, nil,
			[]string{`unknown profile "wrk"`, "known: azure, claude, local, nomodel, router, work", "tavo profile set wrk"}},
		{"unknown profile from env", testConfig(), Overrides{}, map[string]string{"TAVO_PROFILE": "x"},
			[]string{`unknown profile "x" from TAVO_PROFILE`}},
		{"dangling default", &Config{DefaultProfile: "gone"}, Overrides{}, nil,
			[]string{`default_profile "gone"`, "none yet", "tavo profile use"}},
		{"no model for another server", &Config{}, Overrides{BaseURL: "http://127.0.0.1:9/v1"}, map[string]string{"OPENAI_API_KEY": "o"},
			[]string{"no model for http://127.0.0.1:9/v1", "-m/--model", "TAVO_MODEL"}},
		{"profile without model", testConfig(), Overrides{Profile: "nomodel", BaseURL: "https://proxy.test"}, map[string]string{"GEMINI_API_KEY": "g"},
			[]string{`profile "nomodel" has no model`, "tavo profile set nomodel --model"}},
		{"missing usual key", testConfig(), Overrides{Profile: "claude"}, nil,
			[]string{"no API key", "set ANTHROPIC_API_KEY", `profile "claude"`}},
		{"missing gemini key names both vars", &Config{}, Overrides{Provider: "gemini", Model: "m"}, nil,
			[]string{"set GEMINI_API_KEY or GOOGLE_API_KEY"}},
		{"missing named key", testConfig(), Overrides{}, nil,
			[]string{"set WORK_KEY", "api_key_env"}},
		{"third-party host never gets the OpenAI key", testConfig(), Overrides{Profile: "router"}, map[string]string{"OPENAI_API_KEY": "sk-SECRET"},
			[]string{"openrouter.ai", "--key-env", "tavo profile set router"}},
		{"bad provider", &Config{}, Overrides{Provider: "mistral", Model: "m"}, nil,
			[]string{`unknown provider "mistral"`, "openai-responses"}},
		{"bad --base-url", &Config{}, Overrides{BaseURL: "localhost:1/v1", Model: "m"}, nil,
			[]string{"--base-url", "http"}},
		{"bad env base URL", &Config{}, Overrides{Model: "m"}, map[string]string{"OPENAI_API_KEY": "sk-SECRET", "OPENAI_BASE_URL": "ftp://x"},
			[]string{"OPENAI_BASE_URL", "http"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := tc.c.Resolve(tc.o, env(tc.env))
			if err == nil {
				t.Fatalf("no error; got %s", r)
			}
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("not a *config.Error: %T %v", err, err)
			}
			msg := err.Error()
			if strings.Contains(msg, "SECRET") || strings.Contains(msg, "\n") {
				t.Fatalf("bad message %q", msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
		})
	}
}

func TestInspectReportsInsteadOfFailing(t *testing.T) {
	r, err := testConfig().Inspect(Overrides{Profile: "nomodel", BaseURL: "https://proxy.test"}, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if r.Model != "" || !strings.Contains(r.KeyProblem, "GEMINI_API_KEY") || r.KeyEnv != "GEMINI_API_KEY" {
		t.Fatalf("%s problem=%q env=%q", r, r.KeyProblem, r.KeyEnv)
	}
}

func TestResolvedProfileDefaultsAndCopies(t *testing.T) {
	c := testConfig()
	r, err := c.Resolve(Overrides{Profile: "work"}, env(map[string]string{"WORK_KEY": "k"}))
	if err != nil {
		t.Fatal(err)
	}
	p := r.Profile
	if *p.Tools || !*p.DynamicTools || !*p.Stream || p.MaxRounds != 9 || p.MaxToolCalls != 32 ||
		p.ToolTimeout != "60s" || p.ReasoningContext != "off" || p.Protocol != "openai" || p.Model != "gpt-4o" {
		t.Fatalf("defaults: %+v", p)
	}
	if p.ToolTimeoutDuration().Seconds() != 60 || p.TimeoutDuration() != 0 {
		t.Fatal("durations")
	}
	// Changing the result must not change the config.
	r.Headers["X-A"] = "changed"
	r.Profile.Headers["X-A"] = "changed"
	pc := r.ProviderConfig()
	pc.Headers["X-A"] = "changed too"
	if c.Profiles["work"].Headers["X-A"] != "1" || r.Headers["X-A"] != "changed" {
		t.Fatal("Resolve shares maps with the config")
	}
	if pc.APIKey != "k" || pc.BaseURL != "https://api.openai.com/v1" || pc.Retry != providers.DefaultRetryPolicy {
		t.Fatalf("ProviderConfig: %+v", pc)
	}
}

func TestKeysNeverPrinted(t *testing.T) {
	c := testConfig()
	r, err := c.Resolve(Overrides{Profile: "azure", Model: "m"}, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		fmt.Sprintf("%v", r), fmt.Sprintf("%+v", r), fmt.Sprintf("%#v", r),
		fmt.Sprintf("%v", *c.Profiles["azure"]), fmt.Sprintf("%+v", c.Profiles["azure"]), fmt.Sprintf("%#v", *c.Profiles["azure"]),
		fmt.Sprintf("%+v", r.Profile),
	} {
		if strings.Contains(s, "SECRET") {
			t.Errorf("key printed: %s", s)
		}
	}
	if r.Profile.APIKey != "" {
		t.Error("Resolved.Profile carries the key")
	}
}

func TestIsLoopback(t *testing.T) {
	for u, want := range map[string]bool{
		"http://localhost:11434/v1": true, "http://LOCALHOST": true, "http://127.0.0.1:8080": true,
		"http://127.1.2.3": true, "http://[::1]:1/": true, "https://api.openai.com/v1": false,
		"http://10.0.0.1": false, "http://localhost.example.com": false, "::bad": false,
	} {
		if got := IsLoopback(u); got != want {
			t.Errorf("IsLoopback(%q) = %v", u, got)
		}
	}
}
