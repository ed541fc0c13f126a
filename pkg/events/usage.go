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
	// Subagents is each direct sub-agent run's share of the usage above
	// (run.completed of a run that started sub-agents; SPEC §13).
	Subagents []SubagentUsage `json:"subagents,omitempty"`
}

// SubagentUsage is one sub-agent run's usage (its own sub-agents
// included), as usage.subagents lists it.
type SubagentUsage struct {
	SubSessionID string `json:"sub_session_id"`
	RunID        string `json:"run_id"`
	Title        string `json:"title"`
	Status       string `json:"status"`
	Usage        Usage  `json:"usage"`
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
