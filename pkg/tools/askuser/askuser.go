// Package askuser is the tavo_ask_user tool: the model asks the person
// running tavo a question and waits for the answer (SPEC §5).
package askuser

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/tavo-cli/tavo/pkg/tools"
)

// Name is the model-facing name of the tool.
const Name = "tavo_ask_user"

// Event types the tool emits, in this order, for every question it asks.
const (
	EventQuestion = "ask.question"
	EventAnswer   = "ask.answer"
)

// New returns tavo_ask_user.
func New() tools.Tool { return askUser{} }

// askUser is tavo_ask_user.
type askUser struct{}

const description = "Ask the person who runs you a question and wait for the reply. Call it when information " +
	"you need is missing or the request is ambiguous, or when you need their choice or confirmation, and the " +
	"answer would materially change the result; do this instead of guessing or asking in your reply text. " +
	"Offer a few concise options when they fit; free-text answers stay allowed unless allowOther is false. " +
	"Do not interrupt for minor details you can safely infer. Returns " +
	`{"status":"answered","answer":…,"source":"option"|"custom"} or {"status":"cancelled"}.`

const schema = `{
  "type": "object",
  "properties": {
    "question": {"type": "string", "minLength": 1, "description": "The question, short and self-contained."},
    "options": {
      "type": "array",
      "description": "Suggested answers: plain strings, or objects with value and label.",
      "items": {
        "anyOf": [
          {"type": "string", "minLength": 1},
          {
            "type": "object",
            "properties": {
              "value": {"type": "string", "minLength": 1, "description": "Returned as the answer when picked."},
              "label": {"type": "string", "minLength": 1, "description": "Shown to the person."},
              "description": {"type": "string", "description": "One line explaining the option."},
              "meta": {"type": "string", "description": "A short extra note shown beside the option."}
            },
            "required": ["value", "label"],
            "additionalProperties": false
          }
        ]
      }
    },
    "allowOther": {"type": "boolean", "default": true, "description": "Allow a free-text answer besides the options (default true); false requires options."},
    "defaultValue": {"type": "string", "description": "Answer taken when the person just confirms; must be one of the option values when options are given."},
    "placeholder": {"type": "string", "description": "Hint shown where free text is typed."}
  },
  "required": ["question"],
  "additionalProperties": false
}`

// Spec describes tavo_ask_user to the model.
func (askUser) Spec() tools.Spec {
	return tools.Spec{
		Name:        Name,
		ID:          Name,
		Description: description,
		Parameters:  json.RawMessage(schema),
		Resident:    true,
		Source:      tools.SourceBuiltin,
	}
}

// modelAnswer is the result the model reads; Via stays out of it.
type modelAnswer struct {
	Status string  `json:"status"`
	Answer *string `json:"answer,omitempty"`
	Source string  `json:"source,omitempty"`
}

// Run asks the question. Time spent waiting for the person does not count
// against the call's timeout. With no Asker the question is cancelled;
// ErrInputRequired from the Asker is returned as is so the run can end.
func (askUser) Run(ctx context.Context, call *tools.Call) (any, error) {
	q, terr := ParseQuestion(call.Args)
	if terr != nil {
		return nil, terr
	}
	q.CallID = call.ID
	env := call.Env
	env.EmitEvent(EventQuestion, q)

	ans := tools.Answer{Status: tools.StatusCancelled, Via: "none"}
	if env.Asker != nil {
		resume := env.WaitForPerson()
		a, err := env.Asker.Ask(ctx, q)
		resume()
		if err != nil {
			return nil, err
		}
		ans = tools.NormalizeAnswer(q, a)
	}
	env.EmitEvent(EventAnswer, tools.AskAnswerEvent{
		CallID: call.ID, Status: ans.Status, Answer: ans.Answer, Source: ans.Source, Via: ans.Via,
	})
	if ans.Status != tools.StatusAnswered {
		return modelAnswer{Status: tools.StatusCancelled}, nil
	}
	return modelAnswer{Status: ans.Status, Answer: &ans.Answer, Source: ans.Source}, nil
}

// rawArgs are the arguments as sent, after schema validation.
type rawArgs struct {
	Question     string            `json:"question"`
	Options      []json.RawMessage `json:"options"`
	AllowOther   *bool             `json:"allowOther"`
	DefaultValue string            `json:"defaultValue"`
	Placeholder  string            `json:"placeholder"`
}

// rawOption is an option written as an object.
type rawOption struct {
	Value       string `json:"value"`
	Label       string `json:"label"`
	Description string `json:"description"`
	Meta        string `json:"meta"`
}

// ParseQuestion turns schema-valid arguments into a Question and applies
// the checks a schema cannot express, each reported with its argument path:
// blank texts, duplicate option values (compared trimmed and ignoring case),
// allowOther:false without options, and a defaultValue that is not an option
// value. String options become {value: s, label: s}; texts are trimmed; a
// defaultValue is rewritten to the option value it matches.
func ParseQuestion(args json.RawMessage) (tools.Question, *tools.Error) {
	var ra rawArgs
	if err := json.Unmarshal(args, &ra); err != nil {
		return tools.Question{}, tools.Errorf(tools.CodeInvalidArguments, "arguments are not valid JSON")
	}
	q := tools.Question{
		Question:    strings.TrimSpace(ra.Question),
		AllowOther:  ra.AllowOther == nil || *ra.AllowOther,
		Placeholder: strings.TrimSpace(ra.Placeholder),
	}
	if q.Question == "" {
		return q, tools.InvalidArgument("question", "non-empty string", "string")
	}
	seen := map[string]int{}
	for i, raw := range ra.Options {
		var o tools.Option
		valuePath := tools.JoinPath("options", i)
		var s string
		if json.Unmarshal(raw, &s) == nil {
			s = strings.TrimSpace(s)
			if s == "" {
				return q, tools.InvalidArgument(valuePath, "non-empty string", "string")
			}
			o = tools.Option{Value: s, Label: s}
		} else {
			var ro rawOption
			if err := json.Unmarshal(raw, &ro); err != nil {
				return q, tools.InvalidArgument(valuePath, "string or object", "unknown")
			}
			o = tools.Option{
				Value: strings.TrimSpace(ro.Value), Label: strings.TrimSpace(ro.Label),
				Description: strings.TrimSpace(ro.Description),
			}
			if m := strings.TrimSpace(ro.Meta); m != "" {
				o.Meta = m
			}
			valuePath = tools.JoinPath("options", i, "value")
			if o.Value == "" {
				return q, tools.InvalidArgument(valuePath, "non-empty string", "string")
			}
			if o.Label == "" {
				return q, tools.InvalidArgument(tools.JoinPath("options", i, "label"), "non-empty string", "string")
			}
		}
		key := strings.ToLower(o.Value)
		if first, dup := seen[key]; dup {
			e := tools.InvalidArgument(valuePath, "a value no other option has", "string")
			e.Message = "argument " + valuePath + " repeats the value of " + tools.JoinPath("options", first) +
				" (values are compared trimmed and ignoring case)."
			return q, e
		}
		seen[key] = i
		q.Options = append(q.Options, o)
	}
	if !q.AllowOther && len(q.Options) == 0 {
		actual := "missing"
		if ra.Options != nil {
			actual = "array"
		}
		return q, tools.InvalidArgument("options", "non-empty array when allowOther is false", actual)
	}
	if d := strings.TrimSpace(ra.DefaultValue); d != "" {
		q.DefaultValue = d
		if len(q.Options) > 0 {
			i, ok := seen[strings.ToLower(d)]
			if !ok {
				values := make([]string, len(q.Options))
				for j, o := range q.Options {
					values[j] = o.Value
				}
				return q, tools.InvalidArgument("defaultValue", "one of "+strings.Join(values, "|"), "string")
			}
			q.DefaultValue = q.Options[i].Value
		}
	}
	return q, nil
}
