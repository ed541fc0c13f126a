// Package events defines tavo's run events: the NDJSON envelope, the payload
// of every event type, the Emitter that numbers events and hands each one to
// its sinks (stdout, the journal), and the JSON Schema that describes them
// (docs/events.md explains them for script authors).
//
// A line is one JSON object:
//
//	{"v":1,"seq":7,"time":"2026-11-29T15:00:00.123Z","run_id":"run_…","session_id":"ses_…","type":"tool.result","payload":{…}}
package events

// Version is the envelope's "v". It changes only when a field is removed or
// changes meaning; new fields and new types may appear without a change.
const Version = 1

// Type names an event type; it is the envelope's "type".
type Type string

// The event types of version 1.
const (
	RunStarted     Type = "run.started"
	RoundStarted   Type = "round.started"
	TextDelta      Type = "text.delta"
	ReasoningDelta Type = "reasoning.delta"
	// MessageT is "message"; the T keeps the name free for a payload.
	MessageT       Type = "message"
	ToolCall       Type = "tool.call"
	ToolResult     Type = "tool.result"
	ToolsVisible   Type = "tools.visible"
	AskQuestion    Type = "ask.question"
	AskAnswer      Type = "ask.answer"
	ConfirmRequest Type = "confirm.request"
	ConfirmResult  Type = "confirm.result"
	TodoUpdated    Type = "todo.updated"
	Retry          Type = "retry"
	Compaction     Type = "compaction"
	Warning        Type = "warning"
	RunCompleted   Type = "run.completed"
	// The sub-agent events (SPEC §13), in the parent run's stream.
	SubagentStarted   Type = "subagent.started"
	SubagentCompleted Type = "subagent.completed"
	SubagentStopped   Type = "subagent.stopped"
	// MessageSent is a message the model sent with tavo_send_message.
	MessageSent Type = "message.sent"
	// GoalUpdated is a goal created, advanced by a turn, completed,
	// cancelled or exhausted (SPEC §14).
	GoalUpdated Type = "goal.updated"
)

// AllTypes returns every event type of version 1, in the order a reader
// meets them in docs/events.md. The slice is new on every call.
func AllTypes() []Type {
	return []Type{
		RunStarted, RoundStarted, TextDelta, ReasoningDelta, MessageT,
		ToolCall, ToolResult, ToolsVisible, AskQuestion, AskAnswer,
		ConfirmRequest, ConfirmResult, TodoUpdated, Retry, Compaction,
		Warning, SubagentStarted, SubagentCompleted, SubagentStopped, MessageSent, GoalUpdated, RunCompleted,
	}
}

// Envelope is one event as written on a line. Payload is one of the *P
// structs of this package (or a pointer to one).
type Envelope struct {
	V         int    `json:"v"`
	Seq       int64  `json:"seq"`
	Time      string `json:"time"`
	RunID     string `json:"run_id"`
	SessionID string `json:"session_id"`
	Type      Type   `json:"type"`
	Payload   any    `json:"payload"`
}
