package config

import (
	"reflect"
	"strings"
	"testing"
	"time"
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
	}
	if s.Sources["tools"] != "default" || s.Sources["system"] != "default" {
		t.Fatalf("sources %v", s.Sources)
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

func TestResolveRunZeroToolCallsMeansDefault(t *testing.T) {
	s, err := ResolveRun(&Resolved{Profile: Profile{MaxToolCalls: 7}}, RunFlags{MaxToolCalls: ptr(0)})
	if err != nil {
		t.Fatal(err)
	}
	if s.MaxToolCalls != DefaultMaxToolCalls {
		t.Fatalf("max tool calls %d, want %d", s.MaxToolCalls, DefaultMaxToolCalls)
	}
}

func TestResolveRunErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		profile Profile
		flags   RunFlags
		want    string
	}{
		{"rounds", Profile{}, RunFlags{MaxRounds: ptr(0)}, "--max-rounds must be at least 1, got 0"},
		{"tool calls", Profile{}, RunFlags{MaxToolCalls: ptr(-1)}, "--max-tool-calls must not be negative"},
		{"tool timeout flag", Profile{}, RunFlags{ToolTimeout: ptr(time.Duration(0))}, "--tool-timeout must be positive"},
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
