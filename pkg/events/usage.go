package events

import "github.com/tavo-cli/tavo/pkg/providers"

// Usage is token usage as events carry it: the provider's normalised counts
// plus the cost when the profile knows the model's prices.
type Usage struct {
	InputTokens     int      `json:"input_tokens"`
	OutputTokens    int      `json:"output_tokens"`
	CachedTokens    int      `json:"cached_tokens"`
	ReasoningTokens int      `json:"reasoning_tokens"`
	CostUSD         *float64 `json:"cost_usd,omitempty"`
}

// UsageFrom converts a provider's usage; the cost is left unknown.
func UsageFrom(u providers.Usage) Usage {
	return Usage{
		InputTokens:     u.InputTokens,
		OutputTokens:    u.OutputTokens,
		CachedTokens:    u.CachedTokens,
		ReasoningTokens: u.ReasoningTokens,
	}
}
