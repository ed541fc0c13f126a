package runner

import (
	"fmt"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// ReasoningContext says which earlier reasoning is sent back to the model
// (SPEC §2, "interleaved thinking").
type ReasoningContext string

// Reasoning-context modes.
const (
	// ReasoningOff sends no earlier reasoning.
	ReasoningOff ReasoningContext = "off"
	// ReasoningSinceUser resends the reasoning of every tool round after the
	// latest user message.
	ReasoningSinceUser ReasoningContext = "since-user"
	// ReasoningActiveChain resends reasoning only while the current tool loop
	// is unresolved.
	ReasoningActiveChain ReasoningContext = "active-chain"
)

// ParseReasoningContext checks a mode name.
func ParseReasoningContext(s string) (ReasoningContext, error) {
	switch ReasoningContext(s) {
	case "":
		return ReasoningOff, nil
	case ReasoningOff, ReasoningSinceUser, ReasoningActiveChain:
		return ReasoningContext(s), nil
	}
	return "", fmt.Errorf("invalid reasoning context %q: want off, since-user or active-chain", s)
}

// ChainKeeper is implemented by providers that must receive the reasoning of
// an unresolved tool loop whatever the mode (Anthropic thinking blocks, Gemini
// thought signatures).
type ChainKeeper interface {
	RequiresActiveChain() bool
}

// selectReasoning returns the messages to send with reasoning parts kept or
// dropped according to mode. turnStart is the index of the user message that
// started the current turn; later user messages (guidance) do not end it.
// The history itself is never modified: reasoning is always stored.
func selectReasoning(msgs []providers.Message, mode ReasoningContext, turnStart int, keepChain bool) []providers.Message {
	lastUser := -1
	for i, m := range msgs {
		if m.Role == providers.RoleUser {
			lastUser = i
		}
	}
	// The turn's tool loop is unresolved while its last turn that is not a
	// user message (guidance may follow tool results) is a tool result.
	unresolved := false
	for i := len(msgs) - 1; i > turnStart; i-- {
		if msgs[i].Role == providers.RoleUser {
			continue
		}
		unresolved = msgs[i].Role == providers.RoleTool
		break
	}
	keep := func(i int) bool {
		activeChain := unresolved && i > turnStart
		switch {
		case keepChain && activeChain:
			return true
		case mode == ReasoningSinceUser:
			return i > lastUser
		case mode == ReasoningActiveChain:
			return activeChain
		}
		return false
	}
	out := make([]providers.Message, len(msgs))
	for i, m := range msgs {
		if m.Role != providers.RoleAssistant || keep(i) || !hasReasoning(m) {
			out[i] = m
			continue
		}
		parts := make([]providers.Part, 0, len(m.Parts))
		for _, p := range m.Parts {
			if p.Type != providers.PartReasoning {
				parts = append(parts, p)
			}
		}
		out[i] = providers.Message{Role: m.Role, Parts: parts}
	}
	return out
}

func hasReasoning(m providers.Message) bool {
	for _, p := range m.Parts {
		if p.Type == providers.PartReasoning {
			return true
		}
	}
	return false
}
