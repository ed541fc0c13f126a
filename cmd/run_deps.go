package cmd

import (
	"fmt"

	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/anthropic"
	"github.com/tavo-cli/tavo/pkg/providers/gemini"
	"github.com/tavo-cli/tavo/pkg/providers/openai"
	"github.com/tavo-cli/tavo/pkg/providers/responses"
)

// newProvider returns the codec for a resolved profile.
func newProvider(r *config.Resolved) (providers.Provider, error) {
	switch r.Protocol {
	case providers.ProtocolOpenAI:
		return openai.New(r.ProviderConfig()), nil
	case providers.ProtocolOpenAIResponses:
		return responses.New(r.ProviderConfig()), nil
	case providers.ProtocolAnthropic:
		return anthropic.New(r.ProviderConfig()), nil
	case providers.ProtocolGemini:
		return gemini.New(r.ProviderConfig()), nil
	}
	return nil, fmt.Errorf("protocol %q is not supported (use openai, openai-responses, anthropic or gemini)", r.Protocol)
}
