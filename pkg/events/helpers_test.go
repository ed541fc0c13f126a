package events

import (
	"encoding/json"
	"sync"
	"time"
)

// fixedClock returns a clock that advances by 1ms and a bit on every call.
func fixedClock() func() time.Time {
	var mu sync.Mutex
	t := time.Date(2026, 11, 29, 15, 0, 0, 123_456_789, time.FixedZone("CET", 3600))
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(1_250 * time.Microsecond)
		return t
	}
}

// recorder is a sink that keeps copies of every line.
type recorder struct {
	mu    sync.Mutex
	lines [][]byte
	envs  []*Envelope
}

func (r *recorder) WriteEvent(e *Envelope, line []byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, append([]byte(nil), line...))
	r.envs = append(r.envs, e)
	return nil
}

func cost(v float64) *float64 { return &v }

// samples returns one realistic payload for every event type, in stream order.
func samples() []struct {
	T Type
	P any
} {
	usage := Usage{InputTokens: 1830, OutputTokens: 96, CachedTokens: 1024, ReasoningTokens: 40}
	return []struct {
		T Type
		P any
	}{
		{RunStarted, RunStartedP{SessionID: "ses_01JDX8", Profile: "work", Provider: "openai", Model: "gpt-4.1-mini",
			Tools: []string{"tavo_tool_search", "tavo_ask_user", "tavo_web_fetch"}, DynamicTools: true, MaxRounds: 5, ReasoningContext: "off"}},
		{RoundStarted, RoundStartedP{Round: 1}},
		{ReasoningDelta, DeltaP{Round: 1, Text: "The user wants the title"}},
		{TextDelta, DeltaP{Round: 1, Text: "Let me fetch "}},
		{MessageT, &MessageP{Round: 1, Text: "Let me fetch the page.", Reasoning: "The user wants the title of the page.",
			ToolCalls:    []ToolCallRef{{ID: "call_a1", Name: "tavo_web_fetch", Arguments: `{"url":"https://example.com"}`}},
			FinishReason: "tool_calls", Usage: usage}},
		{ToolCall, ToolCallP{Round: 1, CallID: "call_a1", Name: "tavo_web_fetch", ToolID: "tavo_web_fetch",
			Arguments: ParseArguments(`{"url": "https://example.com"}`)}},
		{ConfirmRequest, ConfirmRequestP{CallID: "call_a2", Tool: "deploy", ToolID: "extension/ops:deploy", Arguments: ParseArguments(`{"env":"staging"}`)}},
		{ConfirmResult, ConfirmResultP{CallID: "call_a2", Tool: "deploy", Decision: DecisionAllow, Via: ViaFlag}},
		{ToolResult, ToolResultP{Round: 1, CallID: "call_a1", Name: "tavo_web_fetch", OK: true,
			Result: map[string]any{"title": "Example Domain", "content": "# Example Domain\n\nThis domain is for use in <examples> & docs."}, Bytes: 812, DurationMS: 143}},
		{ToolResult, ToolResultP{Round: 1, CallID: "call_a3", Name: "tavo_file_get", OK: false,
			Error: &ErrorInfo{Code: "resource_not_found", Message: "no file named notes.md", Details: map[string]any{"name": "notes.md"}}, DurationMS: 2}},
		{ToolsVisible, ToolsVisibleP{Added: []string{"tavo_file_get", "tavo_file_put"}, Reason: "tavo_tool_search"}},
		{AskQuestion, AskQuestionP{CallID: "call_b1", Question: "Which environment?",
			Options:    []any{map[string]any{"value": "staging", "label": "Staging"}, map[string]any{"value": "prod", "label": "Production"}},
			AllowOther: true, DefaultValue: "staging", Placeholder: "environment name"}},
		{AskAnswer, AskAnswerP{CallID: "call_b1", Status: AskAnswered, Answer: "staging", Source: SourceOption, Via: ViaTerminal}},
		{AskAnswer, AskAnswerP{CallID: "call_b2", Status: AskCancelled, Via: ViaNone}},
		{TodoUpdated, TodoUpdatedP{Todos: []Todo{
			{Content: "Fetch the page", Status: TodoCompleted},
			{Content: "Summarise it", Status: TodoInProgress, ActiveForm: "Summarising it"},
			{Content: "Write notes.md", Status: TodoPending}}}},
		{Retry, RetryP{Attempt: 1, WaitMS: 2000, Reason: "rate_limited (HTTP 429)"}},
		{Compaction, CompactionP{KeptFromSeq: 41, TokensBefore: 118000, TokensAfter: 23500}},
		{Warning, WarningP{Code: "tool_result_truncated", Message: "a result was cut to 64 KiB", Details: map[string]any{"call_id": "call_a1"}}},
		{SubagentStarted, SubagentStartedP{SubSessionID: "ses_01JDX9", RunID: "run_01JDX9", Title: "Release notes", Mode: "async", Depth: 1}},
		{SubagentCompleted, SubagentCompletedP{SubSessionID: "ses_01JDX9", RunID: "run_01JDX9", Title: "Release notes", Status: StatusCompleted, Usage: usage}},
		{SubagentStopped, SubagentStoppedP{SubSessionID: "ses_01JDXA", RunID: "run_01JDXA", Title: "Scan", Status: StatusCancelled, Usage: usage, Reason: "stopped by its parent"}},
		{MessageSent, MessageSentP{Round: 1, ID: "msg_01", Text: "Build is green."}},
		{GoalUpdated, GoalUpdatedP{GoalID: "goal_01", Condition: "tests pass", Status: "active", CompletedTurns: 1, MaxTurns: 50, By: "turn"}},
		{RunCompleted, RunCompletedP{Status: StatusCompleted, ExitCode: ExitOK, Text: "The page title is \"Example Domain\".",
			Structured: json.RawMessage(`{"title":"Example Domain"}`), Rounds: 2,
			ToolCalls: ToolCallCounts{Total: 2, Failed: 1}, Usage: Usage{InputTokens: 4100, OutputTokens: 180, CostUSD: cost(0.00193),
				Subagents: []SubagentUsage{{SubSessionID: "ses_01JDX9", RunID: "run_01JDX9", Title: "Release notes", Status: StatusCompleted, Usage: usage}}},
			DurationMS: 3120, Resume: "tavo session send ses_01JDX8 TEXT"}},
	}
}
