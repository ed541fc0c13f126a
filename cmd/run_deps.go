package cmd

import (
	"fmt"

	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/openai"
	"github.com/tavo-cli/tavo/pkg/tools"
	"github.com/tavo-cli/tavo/pkg/tools/builtin"
)

// newProvider returns the codec for a resolved profile.
func newProvider(r *config.Resolved) (providers.Provider, error) {
	switch r.Protocol {
	case providers.ProtocolOpenAI:
		return openai.New(r.ProviderConfig()), nil
	}
	return nil, fmt.Errorf("protocol %q is not supported by this build yet (use openai)", r.Protocol)
}

// builtinCatalog returns the built-in tools, limited to allow when given.
func builtinCatalog(f *Factory, allow []string) (*tools.Catalog, error) {
	return builtin.Catalog(builtin.Deps{}, allow)
}
