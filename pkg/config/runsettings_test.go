package config

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/httpx"
	"github.com/tavo-cli/tavo/pkg/providers"
)

func ptr[T any](v T) *T { return &v }

func TestResolveRunDefaults(t *testing.T) {
	// A bare profile and no flags: every setting is its default.
	s, err := ResolveRun(&Resolved{ProfileName: "p", Protocol: "openai", Model: "m"}, RunFlags{})
	if err != nil {
		t.Fatal(err)
	}
	want := &RunSettings{
		ProfileName: "p", Protocol: "openai", Model: "m",
		Tools: DefaultTools, DynamicTools: DefaultDynamicTools, Stream: DefaultStream,
		MaxRounds: DefaultMaxRounds, MaxToolCalls: DefaultMaxToolCalls, MaxOutputTokens: DefaultMaxOutputTokens,
		ToolTimeout: DefaultToolTimeout, Timeout: DefaultTimeout, ReasoningContext: DefaultReasoningContext,
		HTTPTimeouts: httpx.Timeouts{ResponseHeader: DefaultResponseTimeout, IdleBody: DefaultStreamIdleTimeout},
	}
	for _, k := range []string{"tools", "dynamic_tools", "stream", "max_rounds", "max_tool_calls", "max_output_tokens",
		"tool_timeout", "timeout", "reasoning_context", "params", "context_window", "response_timeout", "stream_idle_timeout", "system"} {
		if s.Sources[k] != "default" {
			t.Errorf("source of %s = %q, want default", k, s.Sources[k])
		}
	}
	s.Sources = nil
	if !reflect.DeepEqual(s, want) {
		t.Fatalf("got %+v\nwant %+v", s, want)
	}
	// The same holds for a profile that went through Defaults, as Resolve
	// returns it: the two agree on every default.
	d, err := ResolveRun(&Resolved{ProfileName: "p", Protocol: "openai", Model: "m", Profile: Profile{}.Defaults()}, RunFlags{})
	if err != nil {
		t.Fatal(err)
	}
	d.Sources = nil
	if !reflect.DeepEqual(d, want) {
		t.Fatalf("with Profile.Defaults: got %+v\nwant %+v", d, want)
	}
}

func TestResolveRunProfileBeatsDefault(t *testing.T) {
	p := Profile{
		Tools: ptr(true), DynamicTools: ptr(false), Stream: ptr(false),
		MaxRounds: 9, MaxToolCalls: 7, MaxOutputTokens: 1000, ContextWindow: 8000,
		ToolTimeout: "5s", Timeout: "2m", ReasoningContext: "since-user",
		Params: map[string]any{"temperature": 0.2},
		Prices: &Prices{InputPerMTok: 1, OutputPerMTok: 2},
	}
	s, err := ResolveRun(&Resolved{Profile: p}, RunFlags{})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Tools || s.DynamicTools || s.Stream || s.MaxRounds != 9 || s.MaxToolCalls != 7 || s.MaxOutputTokens != 1000 ||
		s.ToolTimeout != 5*time.Second || s.Timeout != 2*time.Minute || s.ReasoningContext != "since-user" ||
		s.Params["temperature"] != 0.2 || s.ContextWindow != 8000 || s.ContextBudget != 7000 ||
		s.Prices == nil || s.Prices.OutputPerMTok != 2 {
		t.Fatalf("profile values not used: %+v", s)
	}
	// The settings own their copies.
	s.Params["temperature"] = 1.0
	s.Prices.InputPerMTok = 5
	if p.Params["temperature"] != 0.2 || p.Prices.InputPerMTok != 1 {
		t.Fatal("ResolveRun shares the profile's params or prices")
	}
}

func TestResolveRunFlagBeatsProfile(t *testing.T) {
	p := Profile{
		Tools: ptr(true), DynamicTools: ptr(false), Stream: ptr(true),
		MaxRounds: 9, MaxToolCalls: 7, MaxOutputTokens: 1000,
		ToolTimeout: "5s", Timeout: "2m", ReasoningContext: "since-user",
		Params: map[string]any{"temperature": 0.2, "top_p": 0.9},
	}
	s, err := ResolveRun(&Resolved{Profile: p}, RunFlags{
		Tools: ptr(false), DynamicTools: ptr(true), Stream: ptr(false),
		MaxRounds: ptr(2), MaxToolCalls: ptr(3), MaxOutputTokens: ptr(0),
		ToolTimeout: ptr(time.Second), Timeout: ptr(time.Duration(0)), ReasoningContext: ptr("active-chain"),
		Params: []string{"temperature=1", "user=ada", "stop=[\"x\"]"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if s.Tools || !s.DynamicTools || s.Stream || s.MaxRounds != 2 || s.MaxToolCalls != 3 || s.MaxOutputTokens != 0 ||
		s.ToolTimeout != time.Second || s.Timeout != 0 || s.ReasoningContext != "active-chain" {
		t.Fatalf("flags did not win: %+v", s)
	}
	want := map[string]any{"temperature": 1.0, "top_p": 0.9, "user": "ada", "stop": []any{"x"}}
	if !reflect.DeepEqual(s.Params, want) {
		t.Fatalf("params %v, want %v", s.Params, want)
	}
	if p.Params["temperature"] != 0.2 {
		t.Fatal("--param changed the profile's params")
	}
}

// TestResolveRunRanges pins the meaning of 0 and the bounds of every
// numeric run flag: a value out of range is an error naming the flag and
// the range, never reinterpreted (--max-tool-calls 0 used to mean 32).
func TestResolveRunRanges(t *testing.T) {
	for _, tc := range []struct {
		name  string
		flags RunFlags
		want  string
	}{
		{"tool calls 0", RunFlags{MaxToolCalls: ptr(0)}, "--max-tool-calls must be 1-10000, got 0"},
		{"tool calls huge", RunFlags{MaxToolCalls: ptr(10001)}, "--max-tool-calls must be 1-10000, got 10001"},
		{"rounds huge", RunFlags{MaxRounds: ptr(1001)}, "--max-rounds must be 1-1000, got 1001"},
		{"output tokens", RunFlags{MaxOutputTokens: ptr(-5)}, "--max-output-tokens must be 0 (the provider's default) or 1-10000000, got -5"},
		{"timeout", RunFlags{Timeout: ptr(-5 * time.Second)}, "--timeout must be 0 (no limit) or 1ms-720h, got -5s"},
		{"tool timeout", RunFlags{ToolTimeout: ptr(-time.Second)}, "--tool-timeout must be 1ms-24h, got -1s"},
		{"tool timeout huge", RunFlags{ToolTimeout: ptr(25 * time.Hour)}, "--tool-timeout must be 1ms-24h, got 25h"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ResolveRun(&Resolved{Profile: Profile{MaxToolCalls: 7}}, tc.flags)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
	// 0 keeps its documented meanings where it has one.
	s, err := ResolveRun(&Resolved{Profile: Profile{MaxOutputTokens: 900, Timeout: "1m"}}, RunFlags{MaxOutputTokens: ptr(0), Timeout: ptr(time.Duration(0))})
	if err != nil || s.MaxOutputTokens != 0 || s.Timeout != 0 {
		t.Fatalf("0 flags: %+v %v", s, err)
	}
	// A profile value out of range names the profile key.
	if _, err := ResolveRun(&Resolved{Profile: Profile{MaxRounds: -2}}, RunFlags{}); err == nil || err.Error() != "profile max_rounds must be 1-1000, got -2" {
		t.Fatalf("profile key: %v", err)
	}
}

// TestResolveRunOwnedParams: a --param or profile param naming a body field
// the codec sets is refused, naming the flag that sets it.
func TestResolveRunOwnedParams(t *testing.T) {
	for _, tc := range []struct {
		proto   string
		profile map[string]any
		flags   []string
		want    string
	}{
		{"openai", nil, []string{"model=gpt-x"}, `--param model: tavo sets "model" itself from -m/--model; use that instead`},
		{"openai", nil, []string{"temperature=1", "messages=[]"}, `--param messages: tavo sets "messages" itself from the prompt, --attach and --session`},
		{"anthropic", map[string]any{"system": "x"}, nil, `profile params.system: tavo sets "system" itself from --system`},
		{"openai-responses", nil, []string{"input=hi"}, `--param input:`},
		{"gemini", nil, []string{"maxOutputTokens=5"}, `from --max-output-tokens`},
	} {
		_, err := ResolveRun(&Resolved{Protocol: providers.Protocol(tc.proto), Profile: Profile{Params: tc.profile}}, RunFlags{Params: tc.flags})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %v %v: error %v, want %q", tc.proto, tc.profile, tc.flags, err, tc.want)
		}
	}
	// Fields the codec does not own pass, and "messages" is Gemini's to take.
	if _, err := ResolveRun(&Resolved{Protocol: "gemini"}, RunFlags{Params: []string{"messages=1", "temperature=0"}}); err != nil {
		t.Fatal(err)
	}
	// Every protocol owns the fields of the model and the conversation.
	for _, proto := range providers.AllProtocols() {
		info, _ := providers.Lookup(proto)
		if info.OwnedKeys["model"] == "" || info.OwnedKeys["tools"] == "" {
			t.Errorf("%s: OwnedKeys lacks model or tools: %v", proto, info.OwnedKeys)
		}
	}
	// A profile is refused at load (Validate) too, under its own protocol.
	p := Profile{Protocol: "anthropic", Params: map[string]any{"max_tokens": 5}}
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "params.max_tokens: tavo sets") {
		t.Fatalf("Validate: %v", err)
	}
}

func TestResolveRunErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		profile Profile
		flags   RunFlags
		want    string
	}{
		{"rounds", Profile{}, RunFlags{MaxRounds: ptr(0)}, "--max-rounds must be 1-1000, got 0"},
		{"tool calls", Profile{}, RunFlags{MaxToolCalls: ptr(-1)}, "--max-tool-calls must be 1-10000, got -1"},
		{"tool timeout flag", Profile{}, RunFlags{ToolTimeout: ptr(time.Duration(0))}, "--tool-timeout must be 1ms-24h, got 0s"},
		{"tool timeout key", Profile{ToolTimeout: "soon"}, RunFlags{}, `profile tool_timeout "soon" is not a duration`},
		{"timeout key", Profile{Timeout: "5"}, RunFlags{}, `profile timeout "5" is not a duration`},
		{"reasoning flag", Profile{}, RunFlags{ReasoningContext: ptr("always")}, `invalid reasoning context "always"`},
		{"param", Profile{}, RunFlags{Params: []string{"novalue"}}, `invalid --param "novalue": want key=value`},
		{"param key", Profile{}, RunFlags{Params: []string{" =1"}}, `invalid --param`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ResolveRun(&Resolved{Profile: tc.profile}, tc.flags)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error is not one line: %q", err)
			}
		})
	}
	// A bad profile duration is not read when the flag is given.
	if _, err := ResolveRun(&Resolved{Profile: Profile{ToolTimeout: "soon"}}, RunFlags{ToolTimeout: ptr(time.Second)}); err != nil {
		t.Fatalf("flag given, profile key still parsed: %v", err)
	}
}

func TestContextBudget(t *testing.T) {
	for _, tc := range []struct{ window, maxOut, want int }{
		{0, 100, 0},
		{10000, 0, 10000 - DefaultAnswerReserve},
		{10000, 1000, 9000},
		{1000, 4000, 500},
	} {
		if got := ContextBudget(tc.window, tc.maxOut); got != tc.want {
			t.Errorf("ContextBudget(%d, %d) = %d, want %d", tc.window, tc.maxOut, got, tc.want)
		}
	}
}

func TestProfileDefaultsUseTheConstants(t *testing.T) {
	p := Profile{}.Defaults()
	if p.MaxRounds != DefaultMaxRounds || p.MaxToolCalls != DefaultMaxToolCalls || p.ToolTimeoutDuration() != DefaultToolTimeout ||
		p.ToolTimeout != "60s" || *p.Tools != DefaultTools || *p.DynamicTools != DefaultDynamicTools || *p.Stream != DefaultStream {
		t.Fatalf("Defaults disagree with the constants: %+v", p)
	}
}

func TestResolveRunHTTPTimeouts(t *testing.T) {
	r := &Resolved{Profile: Profile{ResponseTimeout: "1h", StreamIdleTimeout: "2h"}}
	s, err := ResolveRun(r, RunFlags{})
	if err != nil {
		t.Fatal(err)
	}
	if s.HTTPTimeouts.ResponseHeader != time.Hour || s.HTTPTimeouts.IdleBody != 2*time.Hour {
		t.Fatalf("profile timeouts: %+v", s.HTTPTimeouts)
	}
	s, err = ResolveRun(r, RunFlags{ResponseTimeout: ptr(time.Second), StreamIdleTimeout: ptr(2 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	if s.HTTPTimeouts.ResponseHeader != time.Second || s.HTTPTimeouts.IdleBody != 2*time.Second {
		t.Fatalf("flags do not beat the profile: %+v", s.HTTPTimeouts)
	}
	for _, f := range []RunFlags{{ResponseTimeout: ptr(time.Duration(0))}, {StreamIdleTimeout: ptr(-time.Second)}} {
		if _, err := ResolveRun(r, f); err == nil || !strings.Contains(err.Error(), "must be 1ms-24h") {
			t.Errorf("ResolveRun(%+v) err = %v", f, err)
		}
	}
}

func TestResolveRunSources(t *testing.T) {
	c := Config{Profiles: map[string]*Profile{"w": {Model: "m", Tools: ptr(true), System: "Be brief."}}}
	env := func(k string) string { return map[string]string{"OPENAI_API_KEY": "k"}[k] }
	r, err := c.Resolve(Overrides{Profile: "w"}, env)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ResolveRun(r, RunFlags{ReasoningContext: ptr("since-user")})
	if err != nil {
		t.Fatal(err)
	}
	if s.System != "Be brief." || !s.Tools {
		t.Fatalf("settings %+v", s)
	}
	want := map[string]string{"tools": "profile", "system": "profile", "reasoning_context": "flag", "dynamic_tools": "default"}
	for k, v := range want {
		if s.Sources[k] != v {
			t.Errorf("source of %s = %q, want %q", k, s.Sources[k], v)
		}
	}
	if r.Sources["profile"] != "flag" || r.Sources["model"] != "profile" || r.Sources["base_url"] != "default" || r.Sources["provider"] != "profile" {
		t.Errorf("resolve sources %v", r.Sources)
	}
	// --system "" clears the profile's prompt for the run.
	s, _ = ResolveRun(r, RunFlags{System: ptr("")})
	if s.System != "" || s.Sources["system"] != "flag" {
		t.Errorf("system %q from %s", s.System, s.Sources["system"])
	}
}
