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

// SignatureChainKeeper is implemented by ChainKeepers whose provider needs
// only the signatures of an unresolved tool loop's reasoning, not its text
// (Gemini's thoughtSignature). Where the mode would drop that reasoning, the
// signatures alone go back; the thought text is left out.
type SignatureChainKeeper interface {
	ChainKeeper
	ChainSignaturesOnly() bool
}

// chainNeed is what a provider needs of an unresolved tool loop's reasoning.
type chainNeed int

const (
	chainNothing    chainNeed = iota // only what the mode keeps
	chainWhole                       // whole reasoning parts (Anthropic)
	chainSignatures                  // the signatures (Gemini)
)

// chainNeedOf asks the provider what it needs of the active chain.
func chainNeedOf(p providers.Provider) chainNeed {
	ck, ok := p.(ChainKeeper)
	if !ok || !ck.RequiresActiveChain() {
		return chainNothing
	}
	if sk, ok := p.(SignatureChainKeeper); ok && sk.ChainSignaturesOnly() {
		return chainSignatures
	}
	return chainWhole
}

// selectReasoning is selectReasoningFor with whole reasoning kept for the
// active chain when keepChain is set.
func selectReasoning(msgs []providers.Message, mode ReasoningContext, turnStart int, keepChain bool) []providers.Message {
	need := chainNothing
	if keepChain {
		need = chainWhole
	}
	return selectReasoningFor(msgs, mode, turnStart, need)
}

// selectReasoningFor returns the messages to send with reasoning parts kept
// or dropped according to mode. turnStart is the index of the user message
// that started the current turn; later user messages (guidance) do not end
// it. need says what the provider requires of the unresolved tool loop
// whatever the mode. The history itself is never modified: reasoning is
// always stored.
func selectReasoningFor(msgs []providers.Message, mode ReasoningContext, turnStart int, need chainNeed) []providers.Message {
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
	modeKeeps := func(i int) bool {
		switch mode {
		case ReasoningSinceUser:
			return i > lastUser
		case ReasoningActiveChain:
			return unresolved && i > turnStart
		}
		return false
	}
	out := make([]providers.Message, len(msgs))
	for i, m := range msgs {
		activeChain := unresolved && i > turnStart
		if m.Role != providers.RoleAssistant || !hasReasoning(m) || modeKeeps(i) || (activeChain && need == chainWhole) {
			out[i] = m
			continue
		}
		signatures := activeChain && need == chainSignatures
		parts := make([]providers.Part, 0, len(m.Parts))
		for _, p := range m.Parts {
			if p.Type != providers.PartReasoning {
				parts = append(parts, p)
				continue
			}
			if signatures && p.Reasoning != nil && p.Reasoning.Signature != "" {
				r := *p.Reasoning
				r.Text = ""
				parts = append(parts, providers.Part{Type: providers.PartReasoning, Reasoning: &r})
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
