package events

import "time"

// RunStartedP is the payload of run.started, always the first event of a run.
type RunStartedP struct {
	SessionID string `json:"session_id"`
	Profile   string `json:"profile"`
	Provider  string `json:"provider"`
	Model     string `json:"model"`
	// Tools are the names visible to the model in the first request; written
	// as [] when empty so scripts can iterate without a null check.
	Tools        []string `json:"tools"`
	DynamicTools bool     `json:"dynamic_tools"`
	MaxRounds    int      `json:"max_rounds"`
	// ReasoningContext is off, since-user or active-chain.
	ReasoningContext string `json:"reasoning_context"`
	// BaseURL is the API root the requests go to.
	BaseURL string `json:"base_url,omitempty"`
	// System is the system prompt given by a flag, the session or the
	// profile (without the memory block); absent when there is none.
	System string `json:"system,omitempty"`
	// AllowTools is the --tool allow-list in force; absent when every
	// tool is allowed.
	AllowTools []string `json:"allow_tools,omitempty"`
	// Sources say where each setting came from, by key (profile,
	// provider, model, base_url, system, tools, allow_tools,
	// dynamic_tools, reasoning_context): "flag", "session", "profile",
	// "env VAR", "default_profile" or "default".
	Sources map[string]string `json:"sources,omitempty"`
	// ResumedFrom is the run this one resumes (tavo runs resume).
	ResumedFrom string `json:"resumed_from,omitempty"`
}

// RoundStartedP is the payload of round.started. Rounds count from 1.
type RoundStartedP struct {
	Round int `json:"round"`
}

// DeltaP is the payload of text.delta and reasoning.delta. Text is only the
// new text, never the text accumulated so far.
type DeltaP struct {
	Round int    `json:"round"`
	Text  string `json:"text"`
}

// MessageP is the payload of message: the model's complete answer of one
// round, written after that round's deltas.
type MessageP struct {
	Round int    `json:"round"`
	Text  string `json:"text"`
	// Reasoning is the visible reasoning, when the provider showed any.
	Reasoning string `json:"reasoning,omitempty"`
	// ToolCalls are in provider order; written as [] when there are none.
	ToolCalls []ToolCallRef `json:"tool_calls"`
	// FinishReason is stop, tool_calls, length, content_filter or other.
	FinishReason string `json:"finish_reason"`
	Usage        Usage  `json:"usage"`
}

// ToolCallRef is a tool call as the model wrote it, arguments unparsed.
type ToolCallRef struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// ToolCallP is the payload of tool.call, written just before the tool runs.
type ToolCallP struct {
	Round  int    `json:"round"`
	CallID string `json:"call_id"`
	Name   string `json:"name"`
	// ToolID is the stable catalog ID (a built-in's name,
	// extension/<ext>:<name>, mcp/<server>:<tool>); empty for an unknown tool.
	ToolID string `json:"tool_id"`
	// Arguments is the parsed JSON when the model's text parses, else the raw
	// text; ParseArguments does that.
	Arguments any `json:"arguments"`
	// ParentCallID is the tavo_code call whose program made this call
	// (code mode, SPEC §12); empty for the model's own calls.
	ParentCallID string `json:"parent_call_id,omitempty"`
}

// ToolResultP is the payload of tool.result. Result is set when OK, Error
// when not.
type ToolResultP struct {
	Round  int    `json:"round"`
	CallID string `json:"call_id"`
	Name   string `json:"name"`
	// ParentCallID is as in ToolCallP.
	ParentCallID string     `json:"parent_call_id,omitempty"`
	OK           bool       `json:"ok"`
	Result       any        `json:"result,omitempty"`
	Error        *ErrorInfo `json:"error,omitempty"`
	Truncated    bool       `json:"truncated"`
	Artifact     string     `json:"artifact,omitempty"`
	Bytes        int        `json:"bytes"`
	DurationMS   int64      `json:"duration_ms"`
}

// ErrorInfo is an error as events carry it (tool errors, the run's error).
type ErrorInfo struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

// ToolsVisibleP is the payload of tools.visible: tools that become callable
// from the next round.
type ToolsVisibleP struct {
	Added  []string `json:"added"`
	Reason string   `json:"reason"`
}

// AskQuestionP is the payload of ask.question: the model asks a person.
type AskQuestionP struct {
	CallID   string `json:"call_id"`
	Question string `json:"question,omitempty"`
	// Questions is seed 004's shape (SPEC §16), instead of Question:
	// objects {question, header, options:[{label, description, preview?}],
	// multi_select}.
	Questions []any `json:"questions,omitempty"`
	// Options are the offered answers (objects with value and label).
	Options      []any  `json:"options,omitempty"`
	AllowOther   bool   `json:"allow_other"`
	DefaultValue string `json:"default_value,omitempty"`
	Placeholder  string `json:"placeholder,omitempty"`
}

// AskAnswerP is the payload of ask.answer.
type AskAnswerP struct {
	CallID string `json:"call_id"`
	// Status is AskAnswered or AskCancelled.
	Status string `json:"status"`
	Answer string `json:"answer,omitempty"`
	// Source is SourceOption or SourceCustom when answered.
	Source string `json:"source,omitempty"`
	// Answers answer Questions, one per question: objects {question,
	// header, selected:[labels], custom?}.
	Answers []any `json:"answers,omitempty"`
	// Via says where the answer came from (ViaTerminal, ViaStdin, ViaDriver,
	// ViaNone).
	Via string `json:"via"`
}

// ConfirmRequestP is the payload of confirm.request: a tool that needs a
// person's permission is about to run.
type ConfirmRequestP struct {
	CallID    string `json:"call_id"`
	Tool      string `json:"tool"`
	ToolID    string `json:"tool_id"`
	Arguments any    `json:"arguments"`
}

// ConfirmResultP is the payload of confirm.result.
type ConfirmResultP struct {
	CallID string `json:"call_id"`
	Tool   string `json:"tool"`
	// Decision is DecisionAllow or DecisionDeny.
	Decision string `json:"decision"`
	// Via says who decided (ViaTerminal, ViaStdin, ViaDriver, ViaFlag, ViaNone).
	Via string `json:"via"`
}

// TodoUpdatedP is the payload of todo.updated: the whole list after a change.
type TodoUpdatedP struct {
	Todos []Todo `json:"todos"`
}

// Todo is one item of the run's todo list.
type Todo struct {
	Content string `json:"content"`
	// Status is TodoPending, TodoInProgress or TodoCompleted.
	Status     string `json:"status"`
	ActiveForm string `json:"active_form,omitempty"`
}

// RetryP is the payload of retry: a failed provider request will be sent
// again after WaitMS.
type RetryP struct {
	Attempt int    `json:"attempt"`
	WaitMS  int64  `json:"wait_ms"`
	Reason  string `json:"reason"`
}

// CompactionP is the payload of compaction: older history was summarised.
// KeptFromSeq is the session message seq from which history is kept verbatim.
type CompactionP struct {
	KeptFromSeq  int64 `json:"kept_from_seq"`
	TokensBefore int   `json:"tokens_before"`
	TokensAfter  int   `json:"tokens_after"`
}

// WarningP is the payload of warning: something a script may want to know
// that did not stop the run.
type WarningP struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

// RunCompletedP is the payload of run.completed, always the last event of a
// run. ExitCode equals the process exit code.
type RunCompletedP struct {
	Status   string `json:"status"`
	ExitCode int    `json:"exit_code"`
	Text     string `json:"text"`
	// Structured is the parsed answer under --schema.
	Structured any            `json:"structured,omitempty"`
	Rounds     int            `json:"rounds"`
	ToolCalls  ToolCallCounts `json:"tool_calls"`
	Usage      Usage          `json:"usage"`
	DurationMS int64          `json:"duration_ms"`
	// Error says why the run did not complete; set whenever Status is failed.
	Error *ErrorInfo `json:"error,omitempty"`
	// Resume is the command that continues this session.
	Resume string `json:"resume,omitempty"`
	// WakeAt is when a worker wakes the session again: set when the run
	// ended with tavo_wait (status waiting).
	WakeAt *time.Time `json:"wake_at,omitempty"`
}

// MessageSentP is the payload of message.sent: a message the model sent to
// the person with tavo_send_message.
type MessageSentP struct {
	Round int    `json:"round"`
	ID    string `json:"id"`
	Text  string `json:"text"`
	// Continue says the turn goes on after the message.
	Continue bool `json:"continue"`
}

// GoalUpdatedP is the payload of goal.updated: a goal's state after a change.
type GoalUpdatedP struct {
	GoalID         string `json:"goal_id"`
	Condition      string `json:"condition"`
	Status         string `json:"status"`
	CompletedTurns int    `json:"completed_turns"`
	MaxTurns       int    `json:"max_turns"`
	// By says what changed it: "created", "turn", "model", "judge",
	// "person" or "max_turns".
	By string `json:"by"`
	// Reason is the judge's reason or the cancel's, when there is one.
	Reason string `json:"reason,omitempty"`
}

// ToolCallCounts counts the tool calls of a run.
type ToolCallCounts struct {
	Total  int `json:"total"`
	Failed int `json:"failed"`
	Denied int `json:"denied"`
}
