// Package providers holds tavo's canonical conversation model and the Provider
// interface that every wire protocol (OpenAI Chat Completions, OpenAI Responses,
// Anthropic Messages, Gemini generateContent) implements.
//
// The runner only ever speaks this model; codecs in the sub-packages translate it
// to and from their provider's wire format.
package providers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/tavo-cli/tavo/pkg/httpx"
)

// Protocol names a wire protocol, as written in profiles and --provider.
type Protocol string

// The protocols tavo knows.
const (
	ProtocolOpenAI          Protocol = "openai"
	ProtocolOpenAIResponses Protocol = "openai-responses"
	ProtocolAnthropic       Protocol = "anthropic"
	ProtocolGemini          Protocol = "gemini"
)

// Role is the author of a message in the canonical conversation.
type Role string

// Roles of the canonical conversation. System text is carried by Request.System,
// not as a message, because every provider places it differently.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	// RoleTool carries the results of the tool calls of the preceding assistant
	// message, one ToolResult part per call.
	RoleTool Role = "tool"
)

// PartType says which field of a Part is set.
type PartType string

// Part types.
const (
	PartText       PartType = "text"
	PartImage      PartType = "image"
	PartReasoning  PartType = "reasoning"
	PartToolCall   PartType = "tool_call"
	PartToolResult PartType = "tool_result"
)

// Message is one turn of the canonical conversation. Parts keep the order the
// provider produced them in (Anthropic interleaves thinking, text and tool_use).
type Message struct {
	Role  Role   `json:"role"`
	Parts []Part `json:"parts"`
}

// Part is one piece of a message. Exactly the field matching Type is set.
type Part struct {
	Type       PartType    `json:"type"`
	Text       string      `json:"text,omitempty"`
	Image      *Image      `json:"image,omitempty"`
	Reasoning  *Reasoning  `json:"reasoning,omitempty"`
	ToolCall   *ToolCall   `json:"tool_call,omitempty"`
	ToolResult *ToolResult `json:"tool_result,omitempty"`
}

// Image is an image given to the model, inline (Data) or by URL.
type Image struct {
	MIMEType string `json:"mime_type"`
	Data     []byte `json:"data,omitempty"`
	URL      string `json:"url,omitempty"`
}

// Reasoning is a block of model reasoning kept verbatim together with whatever
// its provider needs to accept it back in a later request.
type Reasoning struct {
	// Protocol is the protocol that produced the block. Opaque data is only ever
	// sent back to the same protocol; other codecs may send the Text or drop it.
	Protocol Protocol `json:"protocol"`
	// Text is the visible reasoning (OpenAI-compatible reasoning_content,
	// Anthropic thinking, Responses summary text, Gemini thought text).
	Text string `json:"text,omitempty"`
	// Signature is Anthropic's thinking signature or Gemini's thoughtSignature.
	Signature string `json:"signature,omitempty"`
	// Redacted is the data of an Anthropic redacted_thinking block.
	Redacted string `json:"redacted,omitempty"`
	// ID and Encrypted are a Responses reasoning item's id and encrypted_content.
	ID        string `json:"id,omitempty"`
	Encrypted string `json:"encrypted,omitempty"`
}

// ToolCall is a model's request to run one tool.
type ToolCall struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Arguments is the raw argument text the model produced. It is usually a
	// JSON object but may be anything: the runner validates it.
	Arguments string `json:"arguments"`
	// Signature is provider data attached to the call itself (Gemini's
	// thoughtSignature on a functionCall part).
	Signature string `json:"signature,omitempty"`
}

// ToolResult answers one ToolCall.
type ToolResult struct {
	CallID string `json:"call_id"`
	Name   string `json:"name"`
	// Content is the result envelope as JSON text ({"ok":true,"result":…} or
	// {"ok":false,"error":…}).
	Content string `json:"content"`
	IsError bool   `json:"is_error,omitempty"`
}

// ToolSpec is a tool as offered to the model.
type ToolSpec struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Parameters is the JSON Schema of the arguments, as tavo validates them.
	// Codecs adapt it to what their provider accepts.
	Parameters []byte `json:"parameters"`
}

// Request is one model request in canonical form.
type Request struct {
	Model    string
	System   string
	Messages []Message
	Tools    []ToolSpec
	// NoToolCalls keeps Tools described but forbids calling one (each
	// protocol's tool_choice "none"): the last round of a run that hit a
	// limit, whose history holds tool calls that some APIs accept only
	// beside their tools' definitions.
	NoToolCalls bool
	// Stream asks for a streamed (SSE) response.
	Stream bool
	// MaxOutputTokens limits the answer when positive.
	MaxOutputTokens int
	// Params are extra top-level request-body fields (--param key=value); they
	// override what the codec would send.
	Params map[string]any
	// Schema, when set, asks for a final answer that is JSON valid against it
	// (--schema), through the provider's structured-output feature. Codecs
	// without one ignore it; the runner validates the answer either way.
	Schema *OutputSchema
}

// OutputSchema is a JSON Schema the final answer must match.
type OutputSchema struct {
	// Name identifies the schema where a provider wants one (^[a-zA-Z0-9_-]+$).
	Name   string
	Schema []byte
}

// FinishReason is the normalised reason a response ended.
type FinishReason string

// Normalised finish reasons.
const (
	FinishStop          FinishReason = "stop"
	FinishToolCalls     FinishReason = "tool_calls"
	FinishLength        FinishReason = "length"
	FinishContentFilter FinishReason = "content_filter"
	FinishOther         FinishReason = "other"
)

// Usage is token usage normalised across providers.
type Usage struct {
	InputTokens     int `json:"input_tokens"`
	OutputTokens    int `json:"output_tokens"`
	CachedTokens    int `json:"cached_tokens"`
	ReasoningTokens int `json:"reasoning_tokens"`
}

// Add returns the sum of two usages.
func (u Usage) Add(o Usage) Usage {
	return Usage{
		InputTokens:     u.InputTokens + o.InputTokens,
		OutputTokens:    u.OutputTokens + o.OutputTokens,
		CachedTokens:    u.CachedTokens + o.CachedTokens,
		ReasoningTokens: u.ReasoningTokens + o.ReasoningTokens,
	}
}

// Response is a complete model response.
type Response struct {
	// Message is the assistant message, with parts in provider order.
	Message      Message
	FinishReason FinishReason
	Usage        Usage
	// Model is the model the provider says answered, when it says.
	Model string
}

// Text returns the concatenated text parts of m.
func (m Message) Text() string {
	var s string
	for _, p := range m.Parts {
		if p.Type == PartText {
			s += p.Text
		}
	}
	return s
}

// ToolCalls returns the tool calls of m in order.
func (m Message) ToolCalls() []ToolCall {
	var calls []ToolCall
	for _, p := range m.Parts {
		if p.Type == PartToolCall && p.ToolCall != nil {
			calls = append(calls, *p.ToolCall)
		}
	}
	return calls
}

// Sink receives what a provider produces while a response is in progress.
// Methods are called from the goroutine that called Provider.Complete, in order.
type Sink interface {
	// TextDelta is new answer text (never accumulated text).
	TextDelta(text string)
	// ReasoningDelta is new visible reasoning text.
	ReasoningDelta(text string)
	// Retry announces that a failed attempt will be retried after wait.
	Retry(attempt int, wait time.Duration, reason string)
}

// Provider sends canonical requests to one model API.
type Provider interface {
	// Protocol names the wire protocol.
	Protocol() Protocol
	// Complete sends req and returns the whole response. When req.Stream is
	// set, deltas reach sink as they arrive. Errors are *Error.
	Complete(ctx context.Context, req *Request, sink Sink) (*Response, error)
}

// ErrorCode classifies provider failures (SPEC §2).
type ErrorCode string

// Provider error codes.
const (
	ErrAuthFailed            ErrorCode = "auth_failed"
	ErrModelNotFound         ErrorCode = "model_not_found"
	ErrRateLimited           ErrorCode = "rate_limited"
	ErrOverloaded            ErrorCode = "overloaded"
	ErrContextOverflow       ErrorCode = "context_overflow"
	ErrProviderRejectedTools ErrorCode = "provider_rejected_tools"
	ErrProviderError         ErrorCode = "provider_error"
)

// Error is a provider failure. Message is safe to show: it never holds a key
// or a raw response body, only the provider's own error message.
type Error struct {
	Code ErrorCode
	// Status is the HTTP status, 0 when the failure was not an HTTP answer.
	Status  int
	Message string
	// RetryAfter is the wait the provider asked for, 0 when it did not say.
	RetryAfter time.Duration
	Err        error
}

func (e *Error) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("%s (HTTP %d): %s", e.Code, e.Status, e.Message)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// AsError returns err as a *Error, wrapping foreign errors as provider_error.
func AsError(err error) *Error {
	var pe *Error
	if errors.As(err, &pe) {
		return pe
	}
	return &Error{Code: ErrProviderError, Message: err.Error(), Err: err}
}

// Config is what every codec needs to reach its API.
type Config struct {
	// BaseURL is the API root, e.g. https://api.openai.com/v1.
	BaseURL string
	// APIKey is sent in the protocol's auth header; empty sends none (local
	// servers). It must never be logged or shown.
	APIKey string
	// AuthHeader overrides the protocol's auth header name (Azure: "api-key",
	// which is sent without the "Bearer " prefix).
	AuthHeader string
	// Headers are extra request headers from the profile.
	Headers map[string]string
	// Query are extra query parameters (Azure: api-version).
	Query map[string]string
	// Retry is the retry policy for 429, 5xx and 529.
	Retry RetryPolicy
	// HTTPClient is used when set; the default has no overall timeout because
	// streams may be long (the run's context bounds them).
	HTTPClient *http.Client
	// Timeouts bound each phase of a request (connect, TLS, response
	// headers, silence inside a stream) when HTTPClient is nil; zero fields
	// take httpx.ProviderTimeouts.
	Timeouts httpx.Timeouts
}

// RetryPolicy says how often and how long to wait before retrying.
type RetryPolicy struct {
	// MaxRetries is the number of retries after the first attempt (default 3;
	// negative disables retries).
	MaxRetries int
	// BaseDelay is the first backoff delay, doubled each retry (default 1s).
	BaseDelay time.Duration
	// MaxDelay caps one wait, including a provider's Retry-After (default 60s).
	MaxDelay time.Duration
}

// DefaultRetryPolicy is the policy of SPEC §2: 3 retries with backoff.
var DefaultRetryPolicy = RetryPolicy{MaxRetries: 3, BaseDelay: time.Second, MaxDelay: 60 * time.Second}
