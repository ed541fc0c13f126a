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

const description = "Ask the person who runs you a question and wait for the reply. Use it instead of guessing " +
	"when a missing fact or their choice would change the result; offer short options when they fit. Returns " +
	`{"status":"answered","answer","source"} or {"status":"cancelled"}; with questions (1-4 at once; never add ` +
	`an Other option, free text is always allowed) {"status":"answered","answers","text"}.`

const schema = `{
  "type": "object",
  "properties": {
    "question": {"type": "string", "minLength": 1, "description": "Short and self-contained."},
    "options": {
      "type": "array",
      "description": "Strings or {value, label}.",
      "items": {
        "anyOf": [
          {"type": "string", "minLength": 1},
          {
            "type": "object",
            "properties": {
              "value": {"type": "string", "minLength": 1},
              "label": {"type": "string", "minLength": 1},
              "description": {"type": "string"},
              "meta": {"type": "string"}
            },
            "required": ["value", "label"],
            "additionalProperties": false
          }
        ]
      }
    },
    "allowOther": {"type": "boolean", "default": true, "description": "false: options only."},
    "defaultValue": {"type": "string", "description": "Taken on a bare confirm; an option value if any."},
    "placeholder": {"type": "string"},
    "questions": {
      "type": "array",
      "minItems": 1,
      "maxItems": 4,
      "description": "Instead of question: 1-4 questions asked together.",
      "items": {
        "type": "object",
        "properties": {
          "question": {"type": "string", "minLength": 1},
          "header": {"type": "string", "minLength": 1, "maxLength": 12, "description": "A short tag, e.g. \"Auth method\"."},
          "options": {
            "type": "array",
            "minItems": 2,
            "maxItems": 4,
            "items": {
              "type": "object",
              "properties": {
                "label": {"type": "string", "minLength": 1},
                "description": {"type": "string", "minLength": 1},
                "preview": {"type": "string"}
              },
              "required": ["label", "description"],
              "additionalProperties": false
            }
          },
          "multiSelect": {"type": "boolean", "default": false}
        },
        "required": ["question", "header", "options"],
        "additionalProperties": false
      }
    }
  },
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
	// Answers and Text answer seed 004's questions (SPEC §16): the
	// structured answers and their rendering as one sentence.
	Answers []tools.ItemAnswer `json:"answers,omitempty"`
	Text    string             `json:"text,omitempty"`
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
		if len(q.Questions) > 0 {
			ans = tools.NormalizeItemAnswers(q, a)
		} else {
			ans = tools.NormalizeAnswer(q, a)
		}
	}
	env.EmitEvent(EventAnswer, tools.AskAnswerEvent{
		CallID: call.ID, Status: ans.Status, Answer: ans.Answer, Source: ans.Source, Answers: ans.Answers, Via: ans.Via,
	})
	if ans.Status != tools.StatusAnswered {
		return modelAnswer{Status: tools.StatusCancelled}, nil
	}
	if len(q.Questions) > 0 {
		return modelAnswer{Status: ans.Status, Answers: ans.Answers, Text: tools.AnswersText(ans.Answers)}, nil
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
	Questions    []rawItem         `json:"questions"`
}

// rawItem is one question of seed 004's shape.
type rawItem struct {
	Question    string             `json:"question"`
	Header      string             `json:"header"`
	Options     []tools.ItemOption `json:"options"`
	MultiSelect bool               `json:"multiSelect"`
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
	if ra.Questions != nil {
		if present := seed000Field(args); present != "" {
			e := tools.InvalidArgument(present, "absent when questions is given", "present")
			e.Message = "argument " + present + " cannot be combined with questions: pass either question or questions."
			return tools.Question{}, e
		}
		items, terr := parseItems(ra.Questions)
		return tools.Question{Questions: items, AllowOther: true}, terr
	}
	q := tools.Question{
		Question:    strings.TrimSpace(ra.Question),
		AllowOther:  ra.AllowOther == nil || *ra.AllowOther,
		Placeholder: strings.TrimSpace(ra.Placeholder),
	}
	if ra.Question == "" && !hasKey(args, "question") {
		return q, tools.InvalidArgument("question", "string", "missing")
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

// maxLabelWords is the most words an option label of seed 004's shape may
// have (SPEC §16: labels are 1–5 words).
const maxLabelWords = 5

// parseItems applies the checks of seed 004's shape that the schema cannot
// express, each naming its path: blank texts, a question that does not end
// with "?", a label of more than five words or called "Other" (that
// choice is always offered), a label repeated within a question, and a
// question asked twice.
func parseItems(raw []rawItem) ([]tools.QuestionItem, *tools.Error) {
	items := make([]tools.QuestionItem, 0, len(raw))
	asked := map[string]int{}
	for i, r := range raw {
		it := tools.QuestionItem{
			Question: strings.TrimSpace(r.Question), Header: strings.TrimSpace(r.Header), MultiSelect: r.MultiSelect,
		}
		qPath := tools.JoinPath("questions", i, "question")
		switch {
		case it.Question == "":
			return nil, tools.InvalidArgument(qPath, "non-empty string", "string")
		case !strings.HasSuffix(it.Question, "?"):
			return nil, tools.InvalidArgument(qPath, "a question ending with ?", "string")
		}
		if first, dup := asked[strings.ToLower(it.Question)]; dup {
			e := tools.InvalidArgument(qPath, "a question no other item asks", "string")
			e.Message = "argument " + qPath + " repeats " + tools.JoinPath("questions", first, "question") + "."
			return nil, e
		}
		asked[strings.ToLower(it.Question)] = i
		if it.Header == "" {
			return nil, tools.InvalidArgument(tools.JoinPath("questions", i, "header"), "non-empty string", "string")
		}
		labels := map[string]int{}
		for j, o := range r.Options {
			o = tools.ItemOption{Label: strings.TrimSpace(o.Label), Description: strings.TrimSpace(o.Description), Preview: strings.TrimRight(o.Preview, " \t\r\n")}
			lPath := tools.JoinPath("questions", i, "options", j, "label")
			switch words := len(strings.Fields(o.Label)); {
			case words == 0:
				return nil, tools.InvalidArgument(lPath, "non-empty string", "string")
			case words > maxLabelWords:
				return nil, tools.InvalidArgument(lPath, "a label of 1-5 words", "string")
			case strings.EqualFold(o.Label, "Other"):
				e := tools.InvalidArgument(lPath, "a label other than Other", "string")
				e.Message = "argument " + lPath + ` is "Other": free text is always offered, so leave that option out.`
				return nil, e
			}
			if first, dup := labels[strings.ToLower(o.Label)]; dup {
				e := tools.InvalidArgument(lPath, "a label no other option has", "string")
				e.Message = "argument " + lPath + " repeats " + tools.JoinPath("questions", i, "options", first, "label") +
					" (labels are compared trimmed and ignoring case)."
				return nil, e
			}
			labels[strings.ToLower(o.Label)] = j
			if o.Description == "" {
				return nil, tools.InvalidArgument(tools.JoinPath("questions", i, "options", j, "description"), "non-empty string", "string")
			}
			it.Options = append(it.Options, o)
		}
		items = append(items, it)
	}
	return items, nil
}

// seed000Field returns the first of seed 000's top-level fields present in
// args, or "".
func seed000Field(args json.RawMessage) string {
	for _, k := range []string{"question", "options", "allowOther", "defaultValue", "placeholder"} {
		if hasKey(args, k) {
			return k
		}
	}
	return ""
}

// hasKey reports whether the JSON object args has the key k.
func hasKey(args json.RawMessage, k string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(args, &m) != nil {
		return false
	}
	_, ok := m[k]
	return ok
}
