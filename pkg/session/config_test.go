package session

import (
	"context"
	"testing"
)

func TestLayerFlagsWinSessionFills(t *testing.T) {
	on, sys := true, "Answer in French."
	stored := Config{Profile: "work", Model: "m1", System: &sys, Tools: &on, AllowTools: []string{"tavo_web_fetch"}, ReasoningContext: "since-user"}
	other := "Be terse."
	eff, from := Layer(stored, Config{System: &other})
	if *eff.System != other || from["system"] || eff.Model != "m1" || !from["model"] || eff.Profile != "work" || !from["profile"] ||
		eff.Tools == nil || !*eff.Tools || eff.ReasoningContext != "since-user" || len(eff.AllowTools) != 1 {
		t.Fatalf("eff %+v from %v", eff, from)
	}
	// Another profile drops the session's model: it belonged to the old one.
	eff, from = Layer(stored, Config{Profile: "home"})
	if eff.Profile != "home" || eff.Model != "" || from["model"] {
		t.Fatalf("eff %+v from %v", eff, from)
	}
}

func TestSessionConfigStoredOnce(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	if _, err := st.CreateSession(ctx, "ses_a", "a"); err != nil {
		t.Fatal(err)
	}
	if c, err := LoadConfig(ctx, st, "ses_a"); err != nil || !c.IsZero() {
		t.Fatalf("fresh session config %+v, %v", c, err)
	}
	if err := saveConfig(ctx, st, "ses_a", &Config{Model: "m1"}); err != nil {
		t.Fatal(err)
	}
	// The first run decides; a later save leaves it alone.
	if err := saveConfig(ctx, st, "ses_a", &Config{Model: "m2"}); err != nil {
		t.Fatal(err)
	}
	if c, _ := LoadConfig(ctx, st, "ses_a"); c.Model != "m1" {
		t.Fatalf("model %q, want m1", c.Model)
	}
	if _, err := LoadConfig(ctx, st, "ses_nope"); err == nil {
		t.Fatal("unknown session loaded")
	}
}
