package events

// SubagentStartedP is the payload of subagent.started: the run started a
// sub-agent (tavo_subagent, or tavo_subagent_send to an idle one).
type SubagentStartedP struct {
	SubSessionID string `json:"sub_session_id"`
	RunID        string `json:"run_id"`
	Title        string `json:"title"`
	// Mode is "sync" or "async".
	Mode string `json:"mode"`
	// Depth is the sub-agent's depth in its tree (1 for the root's children).
	Depth int `json:"depth"`
}

// SubagentCompletedP is the payload of subagent.completed: a sub-agent run
// ended by itself; its full events are in its own journal.
type SubagentCompletedP struct {
	SubSessionID string     `json:"sub_session_id"`
	RunID        string     `json:"run_id"`
	Title        string     `json:"title"`
	Status       string     `json:"status"`
	Usage        Usage      `json:"usage"`
	Error        *ErrorInfo `json:"error,omitempty"`
}

// SubagentStoppedP is the payload of subagent.stopped: a sub-agent run was
// stopped by its parent (tavo_subagent_stop) or with the parent's run.
type SubagentStoppedP struct {
	SubSessionID string `json:"sub_session_id"`
	RunID        string `json:"run_id"`
	Title        string `json:"title"`
	Status       string `json:"status"`
	Usage        Usage  `json:"usage"`
	// Reason says what stopped it.
	Reason string `json:"reason"`
}
