package events

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers"
)

func TestExitCodeFor(t *testing.T) {
	want := map[string]int{
		StatusCompleted: 0, StatusFailed: 1, StatusMaxRounds: 3, StatusMaxToolCalls: 3,
		StatusTimeout: 3, StatusInputRequired: 5, StatusCancelled: 130, StatusInterrupted: 130, "": 1, "weird": 1,
	}
	for status, code := range want {
		if got := ExitCodeFor(status); got != code {
			t.Errorf("ExitCodeFor(%q) = %d, want %d", status, got, code)
		}
	}
}

func TestUsageFrom(t *testing.T) {
	got := UsageFrom(providers.Usage{InputTokens: 1, OutputTokens: 2, CachedTokens: 3, ReasoningTokens: 4})
	if !reflect.DeepEqual(got, Usage{InputTokens: 1, OutputTokens: 2, CachedTokens: 3, ReasoningTokens: 4}) {
		t.Fatalf("UsageFrom = %+v", got)
	}
	b, _ := marshal(got)
	if strings.Contains(string(b), "cost_usd") {
		t.Errorf("unknown cost should be left out: %s", b)
	}
	got.CostUSD = cost(0.0125)
	b, _ = marshal(got)
	if !strings.Contains(string(b), `"cost_usd":0.0125`) {
		t.Errorf("known cost missing: %s", b)
	}
}

func TestParseArguments(t *testing.T) {
	cases := []struct{ raw, want string }{
		{`{"url": "https://example.com",  "n": 12345678901234567890}`, `{"url":"https://example.com","n":12345678901234567890}`},
		{`{"b":1,"a":2}`, `{"b":1,"a":2}`},
		{`{"url": "https://exa`, `"{\"url\": \"https://exa"`},
		{``, `""`},
		{"{\n \"q\": \"<tag> & more\"\n}", `{"q":"<tag> & more"}`},
	}
	for _, c := range cases {
		b, err := marshal(ToolCallP{Round: 1, CallID: "c", Name: "n", Arguments: ParseArguments(c.raw)})
		if err != nil {
			t.Fatal(err)
		}
		var got struct{ Arguments json.RawMessage }
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if string(got.Arguments) != c.want {
			t.Errorf("ParseArguments(%q) encodes as %s, want %s", c.raw, got.Arguments, c.want)
		}
	}
}

func TestListsNeverNull(t *testing.T) {
	for _, p := range []any{RunStartedP{}, &RunStartedP{}, MessageP{}, ToolsVisibleP{}, TodoUpdatedP{}} {
		b, err := marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "null") || !strings.Contains(string(b), "[]") {
			t.Errorf("%T encodes as %s, want [] for its list", p, b)
		}
	}
	b, _ := marshal(RunStartedP{Tools: []string{"a"}})
	if !strings.Contains(string(b), `"tools":["a"]`) {
		t.Errorf("tools lost: %s", b)
	}
}
