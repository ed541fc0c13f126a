package tools

import (
	"strconv"
	"strings"
)

// Answer statuses and sources of tavo_ask_user (SPEC §5).
const (
	StatusAnswered     = "answered"
	StatusCancelled    = "cancelled"
	AnswerSourceOption = "option"
	AnswerSourceCustom = "custom"
)

// AskAnswerEvent is the payload of the ask.answer event; the ask.question
// payload is the Question itself.
type AskAnswerEvent struct {
	CallID string `json:"call_id"`
	Status string `json:"status"`
	Answer string `json:"answer,omitempty"`
	Source string `json:"source,omitempty"`
	// Answers answer seed 004's questions (SPEC §16), one for each.
	Answers []ItemAnswer `json:"answers,omitempty"`
	Via     string       `json:"via"`
}

// MatchAnswer maps what a person typed to an Answer for q, the way a prompt
// reads it: blank input takes the default when there is one; a number 1..N
// picks that option; text equal to an option's value or label (trimmed,
// ignoring case) picks it; any other text is a custom answer when q allows
// one. ok is false when the input answers nothing and the person should be
// asked again. The returned Answer has no Via; the Asker sets it.
func MatchAnswer(q Question, raw string) (Answer, bool) {
	return matchAnswer(q, raw, true)
}

// NormalizeAnswer checks an Asker's answer against q: an option picked by
// value or label becomes that option's value, a blank answer takes the
// default, and an answer q does not accept (blank without a default, or
// free text when allowOther is false) becomes cancelled. Numbers are not
// read as option positions here: an answer that already came back as text
// means what it says.
func NormalizeAnswer(q Question, a Answer) Answer {
	if a.Status != StatusAnswered {
		return Answer{Status: StatusCancelled, Via: a.Via}
	}
	m, ok := matchAnswer(q, a.Answer, false)
	if !ok {
		return Answer{Status: StatusCancelled, Via: a.Via}
	}
	m.Via = a.Via
	return m
}

// matchAnswer is MatchAnswer with option numbers optional.
func matchAnswer(q Question, raw string, numbers bool) (Answer, bool) {
	s := strings.TrimSpace(raw)
	if s == "" {
		if q.DefaultValue == "" {
			return Answer{}, false
		}
		if o, ok := findOption(q.Options, q.DefaultValue); ok {
			return Answer{Status: StatusAnswered, Answer: o.Value, Source: AnswerSourceOption}, true
		}
		return Answer{Status: StatusAnswered, Answer: q.DefaultValue, Source: AnswerSourceCustom}, true
	}
	if numbers && isDigits(s) {
		if n, err := strconv.Atoi(s); err == nil && n >= 1 && n <= len(q.Options) {
			return Answer{Status: StatusAnswered, Answer: q.Options[n-1].Value, Source: AnswerSourceOption}, true
		}
	}
	if o, ok := findOption(q.Options, s); ok {
		return Answer{Status: StatusAnswered, Answer: o.Value, Source: AnswerSourceOption}, true
	}
	if q.AllowOther {
		return Answer{Status: StatusAnswered, Answer: s, Source: AnswerSourceCustom}, true
	}
	return Answer{}, false
}

// findOption finds the option whose value, else whose label, equals s
// (trimmed, ignoring case).
func findOption(opts []Option, s string) (Option, bool) {
	s = strings.TrimSpace(s)
	for _, o := range opts {
		if strings.EqualFold(strings.TrimSpace(o.Value), s) {
			return o, true
		}
	}
	for _, o := range opts {
		if strings.EqualFold(strings.TrimSpace(o.Label), s) {
			return o, true
		}
	}
	return Option{}, false
}

// isDigits reports whether s is made of ASCII digits only.
func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
