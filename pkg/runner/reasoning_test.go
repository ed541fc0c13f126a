package runner

import (
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers"
)

func user(text string) providers.Message {
	return providers.Message{Role: providers.RoleUser, Parts: []providers.Part{{Type: providers.PartText, Text: text}}}
}

func assistantWithReasoning(thought string, call bool) providers.Message {
	m := providers.Message{Role: providers.RoleAssistant, Parts: []providers.Part{
		{Type: providers.PartReasoning, Reasoning: &providers.Reasoning{Protocol: providers.ProtocolOpenAI, Text: thought}},
	}}
	if call {
		m.Parts = append(m.Parts, providers.Part{Type: providers.PartToolCall, ToolCall: &providers.ToolCall{ID: "c-" + thought, Name: "t", Arguments: "{}"}})
	} else {
		m.Parts = append(m.Parts, providers.Part{Type: providers.PartText, Text: "answer"})
	}
	return m
}

func toolResult(id string) providers.Message {
	return providers.Message{Role: providers.RoleTool, Parts: []providers.Part{{Type: providers.PartToolResult, ToolResult: &providers.ToolResult{CallID: id, Name: "t", Content: `{"ok":true,"result":1}`}}}}
}

// kept lists, per assistant message, whether its reasoning survived.
func kept(msgs []providers.Message) []bool {
	var out []bool
	for _, m := range msgs {
		if m.Role == providers.RoleAssistant {
			out = append(out, hasReasoning(m))
		}
	}
	return out
}

func TestSelectReasoning(t *testing.T) {
	// An earlier turn (resolved), then the current turn mid tool loop, with
	// a guidance message from a driver inside the loop.
	midLoop := []providers.Message{
		user("first"), assistantWithReasoning("old", false),
		user("second"), assistantWithReasoning("r1", true), toolResult("c-r1"),
		user("guidance"), assistantWithReasoning("r2", true), toolResult("c-r2"),
	}
	const turnStart = 2
	resolved := append(append([]providers.Message(nil), midLoop...), assistantWithReasoning("final", false), user("third"))

	cases := []struct {
		name      string
		msgs      []providers.Message
		mode      ReasoningContext
		keepChain bool
		want      []bool
	}{
		{"off drops all", midLoop, ReasoningOff, false, []bool{false, false, false}},
		{"since-user keeps after the latest user message", midLoop, ReasoningSinceUser, false, []bool{false, false, true}},
		{"active-chain keeps the unresolved loop of this turn", midLoop, ReasoningActiveChain, false, []bool{false, true, true}},
		{"active-chain drops a resolved loop", resolved, ReasoningActiveChain, false, []bool{false, false, false, false}},
		{"since-user drops before a new user message", resolved, ReasoningSinceUser, false, []bool{false, false, false, false}},
		{"a provider that needs the chain gets it even when off", midLoop, ReasoningOff, true, []bool{false, true, true}},
		{"guidance after tool results keeps the loop unresolved", append(append([]providers.Message(nil), midLoop...), user("more guidance")), ReasoningOff, true, []bool{false, true, true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := kept(selectReasoning(c.msgs, c.mode, turnStart, c.keepChain))
			if len(got) != len(c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Fatalf("got %v, want %v", got, c.want)
				}
			}
		})
	}
	// The stored history is never modified.
	if !hasReasoning(midLoop[1]) {
		t.Fatal("selectReasoning modified its input")
	}
}

func TestParseReasoningContext(t *testing.T) {
	for _, ok := range []string{"", "off", "since-user", "active-chain"} {
		if _, err := ParseReasoningContext(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	if _, err := ParseReasoningContext("always"); err == nil {
		t.Error("accepted an unknown mode")
	}
}
