package store

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// randomMessage makes a message using every part type and awkward text.
func randomMessage(r *rand.Rand) providers.Message {
	texts := []string{"", "plain", "quote \" back \\ slash / nl \n tab \t cr \r", "<html>&amp;</html>",
		"ünïcödé 日本語 🙂", "\u2028\u2029", "\x00\x01\x1f ctl", "bad \xff utf8", strings.Repeat("long ", 300)}
	txt := func() string { return texts[r.IntN(len(texts))] + texts[r.IntN(len(texts))] }
	m := providers.Message{Role: []providers.Role{providers.RoleUser, providers.RoleAssistant, providers.RoleTool}[r.IntN(3)]}
	if r.IntN(10) == 0 {
		return m // nil parts
	}
	m.Parts = []providers.Part{}
	for range r.IntN(5) {
		switch r.IntN(6) {
		case 0:
			m.Parts = append(m.Parts, providers.Part{Type: providers.PartText, Text: txt()})
		case 1:
			m.Parts = append(m.Parts, providers.Part{Type: providers.PartReasoning, Reasoning: &providers.Reasoning{
				Protocol: providers.ProtocolGemini, Text: txt(), Signature: txt(), Redacted: txt(), ID: txt(), Encrypted: txt()}})
		case 2:
			m.Parts = append(m.Parts, providers.Part{Type: providers.PartToolCall, ToolCall: &providers.ToolCall{
				ID: txt(), Name: txt(), Arguments: `{"a":` + itoa(r.IntN(100)) + `}`, Signature: txt()}})
		case 3:
			m.Parts = append(m.Parts, providers.Part{Type: providers.PartToolResult, ToolResult: &providers.ToolResult{
				CallID: txt(), Name: txt(), Content: txt(), IsError: r.IntN(2) == 0}})
		case 4:
			m.Parts = append(m.Parts, providers.Part{Type: providers.PartImage, Image: &providers.Image{MIMEType: "image/png", Data: []byte(txt())}})
		case 5:
			m.Parts = append(m.Parts, providers.Part{Type: providers.PartType(txt()), Text: txt()})
		}
	}
	return m
}

// TestDecodeMessageMatchesEncodingJSON: what json.Marshal writes decodes
// to exactly what json.Unmarshal gives.
func TestDecodeMessageMatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		m := randomMessage(r)
		data, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		compareDecoders(t, data)
		hasImage := false
		for _, p := range m.Parts {
			hasImage = hasImage || p.Image != nil
		}
		var fast providers.Message
		if !hasImage && !fastDecode(data, &fast) {
			t.Fatalf("the fast path refused what json.Marshal wrote: %s", data)
		}
		if i == 0 {
			t.Logf("%.200s", data)
		}
	}
}

func compareDecoders(t *testing.T, data []byte) {
	t.Helper()
	var want, got providers.Message
	werr := json.Unmarshal(data, &want)
	gerr := decodeMessage(data, &got)
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("decoding %q: encoding/json says %v, decodeMessage says %v", data, werr, gerr)
	}
	if werr == nil && !reflect.DeepEqual(want, got) {
		t.Fatalf("decoding %q:\nencoding/json %#v\ndecodeMessage %#v", data, want, got)
	}
}

func FuzzDecodeMessage(f *testing.F) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		data, _ := json.Marshal(randomMessage(r))
		f.Add(data)
	}
	for _, s := range []string{
		`{"role":"user","parts":null}`, `{"role":"user","role":"tool"}`, `{"Role":"user"}`,
		`{"role":"\ud83d\ude00 \ud800 \u00e9"}`, `{"role":"a\/b"}`, `{"parts":[{"type":"text","text":null}]}`,
		`{"parts":[{"tool_result":{"is_error":true}}]}`, ` {"role" : "x" , "parts" : [ ] } `, `{"role":"x"} x`,
		`{"parts":[{"type":"text"},]}`, `{"role":"\x01"}`, `[]`, `null`, `{"parts":{}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		compareDecoders(t, data)
	})
}

// TestFastDecoderKnowsEveryField keeps decodeMessage's fast path in step
// with providers.Message: a field it does not know is still decoded right
// (through encoding/json) but slowly, so a new field must be added there.
func TestFastDecoderKnowsEveryField(t *testing.T) {
	known := map[string]string{
		"Message":    "parts role",
		"Part":       "image reasoning text tool_call tool_result type", // image goes the slow way on purpose
		"Reasoning":  "encrypted id protocol redacted signature text",
		"ToolCall":   "arguments id name signature",
		"ToolResult": "call_id content is_error name",
		"Image":      "data mime_type url",
	}
	for _, v := range []any{providers.Message{}, providers.Part{}, providers.Reasoning{}, providers.ToolCall{}, providers.ToolResult{}, providers.Image{}} {
		typ := reflect.TypeOf(v)
		var names []string
		for f := range typ.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			names = append(names, name)
		}
		sort.Strings(names)
		if got := strings.Join(names, " "); got != known[typ.Name()] {
			t.Errorf("providers.%s has JSON fields %q; decode.go knows %q: update decodeMessage", typ.Name(), got, known[typ.Name()])
		}
	}
}
