// Package codecs builds the codec of any protocol: it is the constructor
// column of the protocol table in package providers, kept apart because
// providers cannot import its own codec packages. Everything else about a
// protocol (base URL, key variables, auth, fixed headers, the model-list
// request) is in providers.Lookup.
package codecs

import (
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/anthropic"
	"github.com/tavo-cli/tavo/pkg/providers/gemini"
	"github.com/tavo-cli/tavo/pkg/providers/openai"
	"github.com/tavo-cli/tavo/pkg/providers/responses"
)

// New returns the codec of protocol p, configured with cfg. A protocol the
// table lacks is an error naming those it has.
func New(p providers.Protocol, cfg providers.Config) (providers.Provider, error) {
	switch p {
	case providers.ProtocolOpenAI:
		return openai.New(cfg), nil
	case providers.ProtocolOpenAIResponses:
		return responses.New(cfg), nil
	case providers.ProtocolAnthropic:
		return anthropic.New(cfg), nil
	case providers.ProtocolGemini:
		return gemini.New(cfg), nil
	}
	return nil, providers.UnknownProtocolError(p)
}
