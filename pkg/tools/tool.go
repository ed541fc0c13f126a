// Package tools is tavo's tool runtime: the Tool interface, the catalog with
// stable IDs, argument validation against JSON Schema, the result envelope and
// its error codes, result budgets, per-call timeouts and tool search.
package tools

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// Source says where a tool comes from.
type Source string

// Tool sources.
const (
	SourceBuiltin Source = "builtin"
	SourceCommand Source = "command"
	SourceMCP     Source = "mcp"
)

// Spec describes a tool.
type Spec struct {
	// Name is the model-facing name, ^[a-zA-Z0-9_-]{1,64}$.
	Name string `json:"name"`
	// ID is the stable ID: the name for built-ins, extension/<ext>:<name>,
	// mcp/<server>:<tool>.
	ID          string `json:"id"`
	Description string `json:"description"`
	// Parameters is the JSON Schema of the arguments (an object schema).
	Parameters json.RawMessage `json:"parameters"`
	// Resident tools are visible from the first request under dynamic loading.
	Resident bool `json:"resident"`
	// NeedsConfirm tools ask a person before they run.
	NeedsConfirm bool   `json:"needs_confirm"`
	Source       Source `json:"source"`
	// DisplayName is a person-friendly name (command tools may set one).
	DisplayName string `json:"display_name,omitempty"`
}

// Tool is one callable tool.
type Tool interface {
	Spec() Spec
	// Run executes the tool with validated arguments. It returns the result
	// (a string for text, anything JSON-marshalable for structured results) or
	// an error; errors that are not *Error become internal_error with a
	// generic message, so a tool never leaks paths or stacks to the model.
	Run(ctx context.Context, call *Call) (any, error)
}

// Call is one invocation of a tool.
type Call struct {
	// ID is the provider's call id.
	ID string
	// Args are the validated arguments, a JSON object.
	Args json.RawMessage
	// Env is the run the call belongs to; never nil inside Run.
	Env *Env
}

// Env is what a tool may use of the run it is called in.
type Env struct {
	RunID     string
	SessionID string
	Round     int
	// Asker answers tavo_ask_user questions; nil means nobody can answer.
	Asker Asker
	// Confirmer decides on tools that need confirmation; nil denies them.
	Confirmer Confirmer
	// Emit publishes an event of the run (ask.question, todo.updated, …).
	// Nil-safe through Env.emit.
	Emit func(eventType string, payload any)
	// Visibility is the run's set of visible tools (dynamic loading).
	Visibility *Visibility
	// Catalog is the run's catalog (tool search reads it).
	Catalog *Catalog
	// OnUsage receives the usage of model requests a tool makes on the
	// run's behalf (tavo_web_fetch's fetch model), so they count in
	// run.completed.usage. It may be called from a tool's goroutine.
	// Nil-safe through Env.AddUsage.
	OnUsage func(providers.Usage)
	// CallInner runs a tool call made from inside this call (a code-mode
	// program, SPEC §12) through the run's own path; nil when the run
	// offers none. See InnerCaller.
	CallInner InnerCaller
	// CodeTool, in code mode (SPEC §12), is the tool the model's programs
	// run in (tavo_code): a direct call of a tool the model is not sent
	// then says to call it from there. Empty outside code mode.
	CodeTool string

	// pause stops the per-call timeout clock while a person is asked; set by
	// the Executor for the duration of one call.
	pause func() (resume func())
}

// AddUsage counts u in the run's usage when the run keeps a total.
func (e *Env) AddUsage(u providers.Usage) {
	if e != nil && e.OnUsage != nil {
		e.OnUsage(u)
	}
}

// EmitEvent publishes an event when the run listens for them.
func (e *Env) EmitEvent(eventType string, payload any) {
	if e != nil && e.Emit != nil {
		e.Emit(eventType, payload)
	}
}

// WaitForPerson stops the call's timeout clock until the returned function is
// called: time spent waiting for a person does not count (SPEC §4).
func (e *Env) WaitForPerson() (resume func()) {
	if e == nil || e.pause == nil {
		return func() {}
	}
	return e.pause()
}

// Error codes of the result envelope (SPEC §4).
const (
	CodeInvalidArguments     = "invalid_arguments"
	CodeResourceNotFound     = "resource_not_found"
	CodePermissionDenied     = "permission_denied"
	CodeResultTooLarge       = "result_too_large"
	CodeTimeout              = "timeout"
	CodeCancelled            = "cancelled"
	CodeUnknownTool          = "unknown_tool"
	CodeUnsupportedMediaType = "unsupported_media_type"
	CodeLimitExceeded        = "limit_exceeded"
	CodeUpstreamError        = "upstream_error"
	CodeInternalError        = "internal_error"
)

// Error is a tool failure as the model sees it.
type Error struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Errorf is a shorthand for a tool error without details.
func Errorf(code, message string) *Error { return &Error{Code: code, Message: message} }

// AsError returns err as a *Error; anything else becomes a generic
// internal_error so no path, stack or raw body reaches the model.
func AsError(err error) *Error {
	var te *Error
	if errors.As(err, &te) {
		return te
	}
	if errors.Is(err, context.Canceled) {
		return Errorf(CodeCancelled, "the call was cancelled")
	}
	return Errorf(CodeInternalError, "the tool failed unexpectedly")
}

// ErrInputRequired is returned by an Asker when a person's answer is required
// and none may be had (--ask fail); the run then ends with input_required.
var ErrInputRequired = errors.New("a person's answer was required and none could be had")

// Question is what tavo_ask_user asks.
type Question struct {
	CallID   string `json:"call_id"`
	Question string `json:"question,omitempty"`
	// Questions is seed 004's shape (SPEC §16): 1–4 questions asked
	// together. When it is set, Question and Options are empty.
	Questions    []QuestionItem `json:"questions,omitempty"`
	Options      []Option       `json:"options,omitempty"`
	AllowOther   bool           `json:"allow_other"`
	DefaultValue string         `json:"default_value,omitempty"`
	Placeholder  string         `json:"placeholder,omitempty"`
}

// Option is one offered answer.
type Option struct {
	Value       string `json:"value"`
	Label       string `json:"label"`
	Description string `json:"description,omitempty"`
	Meta        any    `json:"meta,omitempty"`
}

// Answer is the reply to a Question.
type Answer struct {
	// Status is "answered" or "cancelled".
	Status string `json:"status"`
	Answer string `json:"answer,omitempty"`
	// Source is "option" or "custom" when answered.
	Source string `json:"source,omitempty"`
	// Answers answer a Question with Questions, one for each, in order.
	Answers []ItemAnswer `json:"answers,omitempty"`
	// Via says where the answer came from: "terminal", "stdin", "driver" or
	// "none". It is reported in the ask.answer event, not to the model.
	Via string `json:"via,omitempty"`
}

// Asker gets answers from a person (terminal, stdin line, an NDJSON driver).
type Asker interface {
	// Ask blocks until an answer, a cancellation, or ctx ends. It returns
	// ErrInputRequired under --ask fail.
	Ask(ctx context.Context, q Question) (Answer, error)
}

// Outcome is what the Executor made of one call.
type Outcome struct {
	ToolID string
	OK     bool
	// Result is the (possibly truncated) result when OK, as the model sees
	// it: a string for a text result, json.RawMessage for a structured one.
	Result any
	// Err is the error when !OK.
	Err *Error
	// Envelope is the JSON text sent to the model.
	Envelope string
	// Truncated is set when the result passed the text budget and the
	// model got a first page and Artifact to read on (SPEC §11).
	Truncated bool
	// Artifact is the artifact:// URL the full result was archived at, when
	// it was.
	Artifact string
	// Bytes is the size of the result in the envelope.
	Bytes    int
	Duration time.Duration
	// InputRequired is set when the tool needed a person's answer and none
	// could be had (ErrInputRequired); the runner ends the run with
	// input_required.
	InputRequired bool
}
