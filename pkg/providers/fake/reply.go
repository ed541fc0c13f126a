package fake

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// Reply is the scripted answer to one request. Exactly one form is used, in
// this order of precedence: Fixture or Raw (a recorded response served byte
// for byte); Status >= 400, Error or Body (an HTTP error or a literal body);
// Steps (an exact sequence of chunks); otherwise the convenience fields Text,
// Reasoning and ToolCalls, which become Steps split into Chunks pieces.
type Reply struct {
	// Protocol picks the wire format. Empty means the one the request path
	// implies (/chat/completions, /responses, /v1/messages,
	// :generateContent), and openai when none matches.
	Protocol providers.Protocol `json:"protocol,omitempty"`

	// Fixture names a recorded .http response: a path relative to the
	// fixtures' scenarios folder ("openai-chat/text.stream.http") or any
	// existing file path.
	Fixture string `json:"fixture,omitempty"`
	// Raw is a recorded response in the same format, given inline.
	Raw string `json:"raw,omitempty"`

	// Status is the HTTP status; 0 means 200.
	Status int `json:"status,omitempty"`
	// Headers are added to the response.
	Headers map[string]string `json:"headers,omitempty"`
	// Body, when set, is sent verbatim instead of anything rendered.
	Body string `json:"body,omitempty"`
	// Error is rendered as the protocol's error envelope. With Status 0 the
	// status is 500.
	Error *APIError `json:"error,omitempty"`

	// Text is the answer, sent as Chunks deltas.
	Text string `json:"text,omitempty"`
	// Reasoning is visible reasoning sent before the text.
	Reasoning string `json:"reasoning,omitempty"`
	// ToolCalls are sent after the text, their arguments in Chunks fragments.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// Chunks is how many pieces text, reasoning and each argument string are
	// split into (default 3).
	Chunks int `json:"chunks,omitempty"`
	// Interleave sends the argument fragments of several tool calls in turn
	// (call 0, call 1, call 0, …) instead of one call after the other.
	Interleave bool `json:"interleave,omitempty"`
	// Finish is the finish reason: stop, tool_calls, length, content_filter,
	// or any wire value. Default: tool_calls when there are tool calls, else stop.
	Finish string `json:"finish,omitempty"`
	// Usage is reported when the request asks for it (zeros when nil).
	Usage *Usage `json:"usage,omitempty"`
	// Model is the answering model; default the request's model.
	Model string `json:"model,omitempty"`

	// Steps is the exact sequence to send; it replaces the convenience fields.
	Steps []Step `json:"steps,omitempty"`
	// Stream forces a stream (true) or one JSON object (false); nil follows
	// the request's "stream" field.
	Stream *bool `json:"stream,omitempty"`
	// Delay waits before anything is sent.
	Delay Duration `json:"delay,omitempty"`
	// NoDone leaves out the stream's end marker: data: [DONE], Anthropic's
	// message_stop, Responses' response.completed, Gemini's last chunk.
	NoDone bool `json:"no_done,omitempty"`
}

// Step is one protocol-neutral piece of a response: usually one stream chunk.
// Fields may be combined (a text delta with a finish reason is one chunk).
type Step struct {
	// Delay waits before the step (for cancellation tests).
	Delay Duration `json:"delay,omitempty"`
	// Text is an answer delta.
	Text string `json:"text,omitempty"`
	// Reasoning is a visible-reasoning delta.
	Reasoning string `json:"reasoning,omitempty"`
	// ToolCall is one tool-call fragment.
	ToolCall *ToolCallDelta `json:"tool_call,omitempty"`
	// Finish ends the choice with this finish reason.
	Finish string `json:"finish,omitempty"`
	// Usage sends the usage chunk (only when the request asked for usage).
	Usage *Usage `json:"usage,omitempty"`
	// Error sends the protocol's error envelope inside the stream.
	Error *APIError `json:"error,omitempty"`
	// Raw is written to the stream verbatim, framing included
	// ("data: {not json\n\n").
	Raw string `json:"raw,omitempty"`
	// Cut closes the connection here, without the end marker.
	Cut bool `json:"cut,omitempty"`
	// Hang waits until the client goes away (or the server closes).
	Hang bool `json:"hang,omitempty"`
}

// ToolCall is a whole tool call of a convenience Reply. An empty ID becomes
// call_<n>.
type ToolCall struct {
	ID        string `json:"id,omitempty"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// ToolCallDelta is one fragment of a tool call. The first fragment of an
// Index carries ID and Name; later ones only Arguments.
type ToolCallDelta struct {
	Index     int    `json:"index"`
	ID        string `json:"id,omitempty"`
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments,omitempty"`
}

// Usage is reported token usage.
type Usage struct {
	InputTokens     int `json:"input_tokens"`
	OutputTokens    int `json:"output_tokens"`
	CachedTokens    int `json:"cached_tokens,omitempty"`
	ReasoningTokens int `json:"reasoning_tokens,omitempty"`
}

// APIError is a provider error envelope's content.
type APIError struct {
	Message string `json:"message"`
	Type    string `json:"type,omitempty"`
	Code    string `json:"code,omitempty"`
	Param   string `json:"param,omitempty"`
}

// Duration is a time.Duration written in scripts as "150ms" or as a number
// of milliseconds.
type Duration time.Duration

// UnmarshalJSON accepts "1.5s" or 1500.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		v, err := time.ParseDuration(s)
		if err != nil {
			return fmt.Errorf("fake: bad duration %q: %w", s, err)
		}
		*d = Duration(v)
		return nil
	}
	ms, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("fake: a duration is a string like \"150ms\" or milliseconds, not %s", b)
	}
	*d = Duration(ms * float64(time.Millisecond))
	return nil
}

// MarshalJSON writes the duration as a string.
func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

// Bool returns a pointer to v, for Reply.Stream.
func Bool(v bool) *bool { return &v }

// steps returns the reply's steps, deriving them from the convenience fields
// when Steps is empty.
func (r *Reply) steps() []Step {
	if len(r.Steps) > 0 {
		return r.Steps
	}
	n := r.Chunks
	if n <= 0 {
		n = 3
	}
	var out []Step
	for _, piece := range split(r.Reasoning, n) {
		out = append(out, Step{Reasoning: piece})
	}
	for _, piece := range split(r.Text, n) {
		out = append(out, Step{Text: piece})
	}
	out = append(out, toolCallSteps(r.ToolCalls, n, r.Interleave)...)
	finish := r.Finish
	if finish == "" {
		finish = "stop"
		if len(r.ToolCalls) > 0 {
			finish = "tool_calls"
		}
	}
	out = append(out, Step{Finish: finish})
	usage := r.Usage
	if usage == nil {
		usage = &Usage{}
	}
	return append(out, Step{Usage: usage})
}

// toolCallSteps splits calls into a header fragment (id, name) and n
// argument fragments each.
func toolCallSteps(calls []ToolCall, n int, interleave bool) []Step {
	frags := make([][]Step, len(calls))
	for i, c := range calls {
		id := c.ID
		if id == "" {
			id = fmt.Sprintf("call_%d", i)
		}
		frags[i] = append(frags[i], Step{ToolCall: &ToolCallDelta{Index: i, ID: id, Name: c.Name}})
		for _, piece := range split(c.Arguments, n) {
			frags[i] = append(frags[i], Step{ToolCall: &ToolCallDelta{Index: i, Arguments: piece}})
		}
	}
	var out []Step
	if !interleave {
		for _, f := range frags {
			out = append(out, f...)
		}
		return out
	}
	for round := 0; ; round++ {
		more := false
		for _, f := range frags {
			if round < len(f) {
				out = append(out, f[round])
				more = true
			}
		}
		if !more {
			return out
		}
	}
}

// split cuts s into at most n pieces of about equal rune count, never inside
// a UTF-8 sequence.
func split(s string, n int) []string {
	if s == "" {
		return nil
	}
	runes := utf8.RuneCountInString(s)
	if n > runes {
		n = runes
	}
	size := (runes + n - 1) / n
	var out []string
	for len(s) > 0 {
		cut, count := 0, 0
		for cut < len(s) && count < size {
			_, w := utf8.DecodeRuneInString(s[cut:])
			cut += w
			count++
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return out
}
