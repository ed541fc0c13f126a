package askuser

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/tools"
)

// two is a valid seed 004 ask with two questions, the second multi-select.
const two = `{"questions":[
 {"question":"Which database?","header":"Database","options":[
   {"label":"SQLite","description":"Embedded, one file"},
   {"label":"PostgreSQL","description":"A server","preview":"docker run postgres"}]},
 {"question":"Which features?","header":"Features","multiSelect":true,"options":[
   {"label":"Auth","description":"Log in"},{"label":"Search","description":"Full text"},{"label":"Export","description":"CSV"}]}]}`

// item builds args with one question whose fields are given raw.
func item(fields string) string {
	return `{"questions":[{` + fields + `}]}`
}

const okOpts = `"options":[{"label":"A","description":"a"},{"label":"B","description":"b"}]`

func TestQuestionsRejections(t *testing.T) {
	five := `{"question":"Q?","header":"H",` + okOpts + `}`
	tests := []struct {
		name, args, path, expected, actual string
	}{
		{"no questions", `{"questions":[]}`, "questions", "non-empty array of at most 4 items", "array"},
		{"five questions", `{"questions":[` + strings.Repeat(five+",", 4) + five + `]}`, "questions", "non-empty array of at most 4 items", "array"},
		{"missing header", item(`"question":"Q?",` + okOpts), "questions[0].header", "string", "missing"},
		{"long header", item(`"question":"Q?","header":"Thirteen char",` + okOpts), "questions[0].header", "non-empty string of at most 12 characters", "string"},
		{"blank header", item(`"question":"Q?","header":"  ",` + okOpts), "questions[0].header", "non-empty string", "string"},
		{"one option", item(`"question":"Q?","header":"H","options":[{"label":"A","description":"a"}]`), "questions[0].options", "array of 2 to 4 items", "array"},
		{"five options", item(`"question":"Q?","header":"H","options":[` + strings.Repeat(`{"label":"A","description":"a"},`, 4) + `{"label":"E","description":"e"}]`), "questions[0].options", "array of 2 to 4 items", "array"},
		{"no question mark", item(`"question":"Pick one","header":"H",` + okOpts), "questions[0].question", "a question ending with ?", "string"},
		{"missing description", item(`"question":"Q?","header":"H","options":[{"label":"A","description":"a"},{"label":"B"}]`), "questions[0].options[1].description", "string", "missing"},
		{"blank label", `{"questions":[` + five + `,{"question":"R?","header":"H","options":[{"label":" ","description":"a"},{"label":"B","description":"b"}]}]}`, "questions[1].options[0].label", "non-empty string", "string"},
		{"long label", item(`"question":"Q?","header":"H","options":[{"label":"one two three four five six","description":"a"},{"label":"B","description":"b"}]`), "questions[0].options[0].label", "a label of 1-5 words", "string"},
		{"Other label", item(`"question":"Q?","header":"H","options":[{"label":"A","description":"a"},{"label":"other","description":"b"}]`), "questions[0].options[1].label", "a label other than Other", "string"},
		{"repeated label", item(`"question":"Q?","header":"H","options":[{"label":"A","description":"a"},{"label":" a ","description":"b"}]`), "questions[0].options[1].label", "a label no other option has", "string"},
		{"repeated question", `{"questions":[` + five + `,` + five + `]}`, "questions[1].question", "a question no other item asks", "string"},
		{"unknown item field", item(`"question":"Q?","header":"H","multi":true,` + okOpts), "questions[0].multi", "no additional properties", "boolean"},
		{"mixed with question", `{"question":"Q?","questions":[` + five + `]}`, "question", "absent when questions is given", "present"},
		{"multiSelect type", item(`"question":"Q?","header":"H","multiSelect":"yes",` + okOpts), "questions[0].multiSelect", "boolean", "string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := &tools.Env{Asker: askerFunc(func(context.Context, tools.Question) (tools.Answer, error) {
				t.Fatal("asked an invalid question")
				return tools.Answer{}, nil
			})}
			out := ask(t, env, tt.args)
			if out.OK {
				t.Fatalf("accepted: %s", out.Envelope)
			}
			got := [3]any{out.Err.Details["path"], out.Err.Details["expected"], out.Err.Details["actualType"]}
			want := [3]any{tt.path, tt.expected, tt.actual}
			if got != want {
				t.Fatalf("got %q, want %q (%s)", got, want, out.Err.Message)
			}
			if !strings.Contains(out.Err.Message, tt.path) {
				t.Fatalf("message %q does not name %q", out.Err.Message, tt.path)
			}
		})
	}
}

func TestQuestionsAnswered(t *testing.T) {
	var asked tools.Question
	rec := &recorder{}
	env := &tools.Env{Emit: rec.emit, Asker: askerFunc(func(_ context.Context, q tools.Question) (tools.Answer, error) {
		asked = q
		// Labels as a person might spell them, out of order: the tool puts
		// them in the question's spelling and option order.
		return tools.Answer{Status: tools.StatusAnswered, Via: "driver", Answers: []tools.ItemAnswer{
			{Selected: []string{"sqlite"}},
			{Selected: []string{"export", "Auth"}, Custom: " Webhooks "},
		}}, nil
	})}
	out := ask(t, env, two)
	if !out.OK {
		t.Fatalf("refused: %s", out.Envelope)
	}
	if len(asked.Questions) != 2 || !asked.AllowOther || asked.Questions[0].Options[1].Preview != "docker run postgres" || !asked.Questions[1].MultiSelect {
		t.Fatalf("asked %+v", asked)
	}
	var res struct {
		Result struct {
			Status  string             `json:"status"`
			Answers []tools.ItemAnswer `json:"answers"`
			Text    string             `json:"text"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(out.Envelope), &res); err != nil {
		t.Fatal(err)
	}
	want := []tools.ItemAnswer{
		{Question: "Which database?", Header: "Database", Selected: []string{"SQLite"}},
		{Question: "Which features?", Header: "Features", Selected: []string{"Auth", "Export"}, Custom: "Webhooks"},
	}
	if res.Result.Status != "answered" || !reflect.DeepEqual(res.Result.Answers, want) {
		t.Fatalf("result %s", out.Envelope)
	}
	wantText := `User has answered your questions: "Which database?"="SQLite", "Which features?"="Auth, Export, Webhooks". You can now continue with the user's answers in mind.`
	if res.Result.Text != wantText {
		t.Fatalf("text\n got %s\nwant %s", res.Result.Text, wantText)
	}
	ev, ok := rec.events[1].(tools.AskAnswerEvent)
	if !ok || !reflect.DeepEqual(ev.Answers, want) || ev.Via != "driver" {
		t.Fatalf("answer event %+v", rec.events[1])
	}
}

func TestQuestionsAnswerThatDoesNotFitCancels(t *testing.T) {
	for name, a := range map[string][]tools.ItemAnswer{
		"too few":                 {{Selected: []string{"SQLite"}}},
		"unknown label":           {{Selected: []string{"MySQL"}}, {Selected: []string{"Auth"}}},
		"two on a single select":  {{Selected: []string{"SQLite", "PostgreSQL"}}, {Selected: []string{"Auth"}}},
		"nothing chosen or typed": {{Selected: []string{"SQLite"}}, {}},
	} {
		env := &tools.Env{Asker: askerFunc(func(context.Context, tools.Question) (tools.Answer, error) {
			return tools.Answer{Status: tools.StatusAnswered, Answers: a}, nil
		})}
		if out := ask(t, env, two); out.Envelope != `{"ok":true,"result":{"status":"cancelled"}}` {
			t.Errorf("%s: %s", name, out.Envelope)
		}
	}
}

// Seed 000's shape is untouched by seed 004's: same result, no answers.
func TestSeed000ShapeUnchanged(t *testing.T) {
	env := &tools.Env{Asker: askerFunc(func(context.Context, tools.Question) (tools.Answer, error) {
		return tools.Answer{Status: tools.StatusAnswered, Answer: "b", Via: "stdin"}, nil
	})}
	if out := ask(t, env, `{"question":"Pick","options":["a","b"]}`); out.Envelope != `{"ok":true,"result":{"status":"answered","answer":"b","source":"option"}}` {
		t.Fatalf("envelope %s", out.Envelope)
	}
}
