package cmd

import (
	"fmt"

	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/openai"
)

// newProvider returns the codec for a resolved profile.
func newProvider(r *config.Resolved) (providers.Provider, error) {
	switch r.Protocol {
	case providers.ProtocolOpenAI:
		return openai.New(r.ProviderConfig()), nil
	}
	return nil, fmt.Errorf("protocol %q is not supported by this build yet (use openai)", r.Protocol)
}
