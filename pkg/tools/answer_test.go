package tools

import (
	"reflect"
	"testing"
)

func TestMatchAnswer(t *testing.T) {
	opts := []Option{{Value: "chat", Label: "This chat"}, {Value: "global", Label: "All chats"}, {Value: "3", Label: "Three"}}
	open := Question{Options: opts, AllowOther: true, DefaultValue: "chat"}
	strict := Question{Options: opts}
	free := Question{AllowOther: true}
	freeDefault := Question{AllowOther: true, DefaultValue: "later"}
	tests := []struct {
		name   string
		q      Question
		raw    string
		answer string
		source string
		ok     bool
	}{
		{"number", open, "2", "global", AnswerSourceOption, true},
		{"number with spaces", strict, " 1 \n", "chat", AnswerSourceOption, true},
		{"number beats value", strict, "3", "3", AnswerSourceOption, true},
		{"number out of range is text", open, "4", "4", AnswerSourceCustom, true},
		{"number out of range strict", strict, "4", "", "", false},
		{"value ignoring case", strict, "GLOBAL", "global", AnswerSourceOption, true},
		{"label", strict, "all chats", "global", AnswerSourceOption, true},
		{"empty takes default", open, "   ", "chat", AnswerSourceOption, true},
		{"empty without default", strict, "", "", "", false},
		{"custom trimmed", open, "  somewhere else ", "somewhere else", AnswerSourceCustom, true},
		{"custom refused in strict mode", strict, "elsewhere", "", "", false},
		{"free text", free, "blue", "blue", AnswerSourceCustom, true},
		{"free text number", free, "1", "1", AnswerSourceCustom, true},
		{"free default", freeDefault, "", "later", AnswerSourceCustom, true},
	}
	for _, tt := range tests {
		a, ok := MatchAnswer(tt.q, tt.raw)
		if ok != tt.ok || a.Answer != tt.answer || a.Source != tt.source {
			t.Errorf("%s: MatchAnswer(%q) = %+v, %v", tt.name, tt.raw, a, ok)
		}
		if ok && a.Status != StatusAnswered {
			t.Errorf("%s: status %q", tt.name, a.Status)
		}
	}
}

func TestNormalizeAnswer(t *testing.T) {
	q := Question{Options: []Option{{Value: "a", Label: "Alpha"}, {Value: "b", Label: "Beta"}}, DefaultValue: "a"}
	tests := []struct {
		in   Answer
		want Answer
	}{
		{Answer{Status: StatusAnswered, Answer: "Beta", Via: "driver"}, Answer{Status: StatusAnswered, Answer: "b", Source: AnswerSourceOption, Via: "driver"}},
		{Answer{Status: StatusAnswered, Answer: "", Via: "stdin"}, Answer{Status: StatusAnswered, Answer: "a", Source: AnswerSourceOption, Via: "stdin"}},
		{Answer{Status: StatusAnswered, Answer: "1", Via: "stdin"}, Answer{Status: StatusCancelled, Via: "stdin"}},
		{Answer{Status: StatusAnswered, Answer: "zzz", Via: "driver"}, Answer{Status: StatusCancelled, Via: "driver"}},
		{Answer{Status: "weird", Via: "terminal"}, Answer{Status: StatusCancelled, Via: "terminal"}},
	}
	for _, tt := range tests {
		if got := NormalizeAnswer(q, tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("NormalizeAnswer(%+v) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}
