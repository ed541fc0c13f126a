package tools

import (
	"encoding/json"
	"strconv"
	"strings"
)

// QuestionItem is one question of seed 004's tavo_ask_user shape
// (SPEC §16): a header shown as a tag, 2–4 options, and a free-text
// "Other" answer that is always allowed.
type QuestionItem struct {
	Question    string       `json:"question"`
	Header      string       `json:"header"`
	Options     []ItemOption `json:"options"`
	MultiSelect bool         `json:"multi_select"`
}

// ItemOption is one offered answer of a QuestionItem.
type ItemOption struct {
	Label       string `json:"label"`
	Description string `json:"description"`
	// Preview is longer content (a code sample, a mock-up) shown on demand.
	Preview string `json:"preview,omitempty"`
}

// ItemAnswer is the answer to one QuestionItem: the labels picked, in
// option order, and the "Other" text when the person typed one.
type ItemAnswer struct {
	Question string   `json:"question"`
	Header   string   `json:"header"`
	Selected []string `json:"selected"`
	Custom   string   `json:"custom,omitempty"`
}

// Text is the answer as the model reads it: the labels joined with ", ",
// then the custom text.
func (a ItemAnswer) Text() string {
	parts := append([]string(nil), a.Selected...)
	if a.Custom != "" {
		parts = append(parts, a.Custom)
	}
	return strings.Join(parts, ", ")
}

// AnswersText renders answers the way SPEC §16 gives them to the model.
func AnswersText(answers []ItemAnswer) string {
	var b strings.Builder
	b.WriteString("User has answered your questions: ")
	for i, a := range answers {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(a.Question))
		b.WriteString("=")
		b.WriteString(strconv.Quote(a.Text()))
	}
	b.WriteString(". You can now continue with the user's answers in mind.")
	return b.String()
}

// MatchItem maps one typed line to an answer of q, the way the terminal
// and a stdin line read it: a number picks that option, several numbers
// (separated by commas or spaces) pick several when q is multi-select, an
// option's label (trimmed, ignoring case) picks it, and any other text is
// the "Other" answer. ok is false for a blank line or a number out of
// range: the person should be asked again.
func MatchItem(q QuestionItem, raw string) (ItemAnswer, bool) {
	s := strings.TrimSpace(raw)
	ans := ItemAnswer{Question: q.Question, Header: q.Header, Selected: []string{}}
	if s == "" {
		return ans, false
	}
	if picks, numeric := optionNumbers(s); numeric {
		if len(picks) == 0 || (!q.MultiSelect && len(picks) > 1) {
			return ans, false
		}
		chosen := make([]bool, len(q.Options))
		for _, n := range picks {
			if n < 1 || n > len(q.Options) {
				return ans, false
			}
			chosen[n-1] = true
		}
		for i, c := range chosen {
			if c {
				ans.Selected = append(ans.Selected, q.Options[i].Label)
			}
		}
		return ans, true
	}
	if i := itemLabel(q, s); i >= 0 {
		ans.Selected = append(ans.Selected, q.Options[i].Label)
		return ans, true
	}
	ans.Custom = s
	return ans, true
}

// optionNumbers reads "2", "1,3" or "1 3"; numeric is false when s holds
// anything but digits, commas and spaces.
func optionNumbers(s string) (picks []int, numeric bool) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	for _, f := range fields {
		if !isDigits(f) {
			return nil, false
		}
		n, err := strconv.Atoi(f)
		if err != nil {
			n = -1
		}
		picks = append(picks, n)
	}
	return picks, true
}

// itemLabel returns the index of q's option labelled s, or -1.
func itemLabel(q QuestionItem, s string) int {
	for i, o := range q.Options {
		if strings.EqualFold(strings.TrimSpace(o.Label), strings.TrimSpace(s)) {
			return i
		}
	}
	return -1
}

// wireItemAnswer is an answer object a driver (or an Asker) sends.
type wireItemAnswer struct {
	Selected []string `json:"selected"`
	Custom   string   `json:"custom"`
}

// ItemAnswerFromJSON reads a driver's answer to q: a string is read like a
// typed line (MatchItem); an object {selected:[labels], custom?} names the
// labels itself. ok is false when the answer does not fit q: an unknown
// label, several labels for a single-select question, nothing chosen, or
// a string that reads as no answer.
func ItemAnswerFromJSON(q QuestionItem, raw json.RawMessage) (ItemAnswer, bool) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return MatchItem(q, s)
	}
	var w wireItemAnswer
	if err := json.Unmarshal(raw, &w); err != nil {
		return ItemAnswer{}, false
	}
	return checkItemAnswer(q, ItemAnswer{Selected: w.Selected, Custom: w.Custom})
}

// checkItemAnswer puts a's labels in q's spelling and option order and
// reports whether a answers q.
func checkItemAnswer(q QuestionItem, a ItemAnswer) (ItemAnswer, bool) {
	out := ItemAnswer{Question: q.Question, Header: q.Header, Selected: []string{}, Custom: strings.TrimSpace(a.Custom)}
	chosen := make([]bool, len(q.Options))
	for _, l := range a.Selected {
		i := itemLabel(q, l)
		if i < 0 {
			return out, false
		}
		chosen[i] = true
	}
	for i, c := range chosen {
		if c {
			out.Selected = append(out.Selected, q.Options[i].Label)
		}
	}
	if len(out.Selected) == 0 && out.Custom == "" {
		return out, false
	}
	if !q.MultiSelect && len(out.Selected)+min(len(out.Custom), 1) > 1 {
		return out, false
	}
	return out, true
}

// NormalizeItemAnswers checks an Asker's answers against q's questions:
// one answer per question, each fitting its question. Anything else
// becomes cancelled, as NormalizeAnswer does for seed 000's shape.
func NormalizeItemAnswers(q Question, a Answer) Answer {
	if a.Status != StatusAnswered || len(a.Answers) != len(q.Questions) {
		return Answer{Status: StatusCancelled, Via: a.Via}
	}
	out := Answer{Status: StatusAnswered, Via: a.Via, Answers: make([]ItemAnswer, len(q.Questions))}
	for i, item := range q.Questions {
		got, ok := checkItemAnswer(item, a.Answers[i])
		if !ok {
			return Answer{Status: StatusCancelled, Via: a.Via}
		}
		out.Answers[i] = got
	}
	return out
}
