package providers

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// randomMessage makes a message using every part type and awkward text:
// escapes, HTML, control bytes, invalid UTF-8, U+2028.
func randomMessage(r *rand.Rand) Message {
	texts := []string{"", "plain", "quote \" back \\ slash / nl \n tab \t cr \r bs \b ff \f", "<html>&amp;</html>",
		"ünïcödé 日本語 🙂", "\u2028\u2029", "\x00\x01\x1f\x7f ctl", "bad \xff utf8 \xe2\x80", strings.Repeat("long ", 300)}
	txt := func() string { return texts[r.IntN(len(texts))] + texts[r.IntN(len(texts))] }
	m := Message{Role: []Role{RoleUser, RoleAssistant, RoleTool, ""}[r.IntN(4)]}
	if r.IntN(10) == 0 {
		return m // nil parts
	}
	m.Parts = []Part{}
	for range r.IntN(5) {
		switch r.IntN(7) {
		case 0:
			m.Parts = append(m.Parts, Part{Type: PartText, Text: txt()})
		case 1:
			m.Parts = append(m.Parts, Part{Type: PartReasoning, Reasoning: &Reasoning{
				Protocol: ProtocolGemini, Text: txt(), Signature: txt(), Redacted: txt(), ID: txt(), Encrypted: txt()}})
		case 2:
			m.Parts = append(m.Parts, Part{Type: PartToolCall, ToolCall: &ToolCall{
				ID: txt(), Name: txt(), Arguments: `{"a":` + strconv.Itoa(r.IntN(100)) + `}`, Signature: txt()}})
		case 3:
			m.Parts = append(m.Parts, Part{Type: PartToolResult, ToolResult: &ToolResult{
				CallID: txt(), Name: txt(), Content: txt(), IsError: r.IntN(2) == 0}})
		case 4:
			data := []byte(txt())
			if r.IntN(3) == 0 {
				data = []byte{} // empty, not nil: omitted all the same
			}
			m.Parts = append(m.Parts, Part{Type: PartImage, Image: &Image{MIMEType: "image/png", Data: data, URL: txt()}})
		case 5:
			m.Parts = append(m.Parts, Part{Type: PartType(txt()), Text: txt()})
		case 6:
			m.Parts = append(m.Parts, Part{}) // every field empty
		}
	}
	return m
}

// TestMessageJSONMatchesEncodingJSON: what json.Marshal writes decodes to
// exactly what encoding/json gives from the tags, alone and nested, and
// through the fast path whenever there is no image.
func TestMessageJSONMatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		m := randomMessage(r)
		data, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if tags, _ := json.Marshal(messageTags(m)); !bytes.Equal(data, tags) {
			t.Fatalf("a Message no longer encodes as its tags say:\n%s\n%s", data, tags)
		}
		compareDecoders(t, data)
		hasImage := false
		for _, p := range m.Parts {
			hasImage = hasImage || p.Image != nil
		}
		var fast Message
		d := msgDecoder{b: data}
		if !hasImage && !(d.message(&fast) && d.end()) {
			t.Fatalf("the fast path refused what json.Marshal wrote: %s", data)
		}
		if i == 0 {
			t.Logf("%.200s", data)
		}
		type wrapped struct {
			Ms []Message `json:"ms"`
			P  *Message  `json:"p"`
		}
		type wrappedTags struct {
			Ms []messageTags `json:"ms"`
			P  *messageTags  `json:"p"`
		}
		nested, _ := json.Marshal(wrapped{[]Message{m, {}}, &m})
		var got wrapped
		var want wrappedTags
		if err := json.Unmarshal(nested, &got); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(nested, &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(Message(*want.P), *got.P) ||
			!reflect.DeepEqual(Message(want.Ms[0]), got.Ms[0]) || !reflect.DeepEqual(Message(want.Ms[1]), got.Ms[1]) {
			t.Fatalf("nested %s:\ngot  %#v\nwant %#v", nested, got, want)
		}
	}
}

// compareDecoders checks that data decodes, through json.Unmarshal and
// through UnmarshalJSON called directly (as the store does), to what
// encoding/json gives from the tags, and fails alike.
func compareDecoders(t *testing.T, data []byte) {
	t.Helper()
	var want messageTags
	werr := json.Unmarshal(data, &want)
	var viaJSON, direct Message
	jerr := json.Unmarshal(data, &viaJSON)
	derr := direct.UnmarshalJSON(data)
	for _, c := range []struct {
		how string
		got Message
		err error
	}{{"json.Unmarshal", viaJSON, jerr}, {"UnmarshalJSON", direct, derr}} {
		if (werr == nil) != (c.err == nil) {
			t.Fatalf("decoding %q: encoding/json says %v, %s says %v", data, werr, c.how, c.err)
		}
		if werr == nil && !reflect.DeepEqual(Message(want), c.got) {
			t.Fatalf("decoding %q:\nencoding/json %#v\n%s %#v", data, want, c.how, c.got)
		}
	}
}

func FuzzMessageJSON(f *testing.F) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		data, _ := json.Marshal(randomMessage(r))
		f.Add(data)
	}
	for _, s := range []string{
		`{"role":"user","parts":null}`, `{"role":"user","role":"tool"}`, `{"Role":"user"}`,
		`{"role":"\ud83d\ude00 \ud800 \u00e9"}`, `{"role":"a\/b"}`, `{"parts":[{"type":"text","text":null}]}`,
		`{"parts":[{"tool_result":{"is_error":true}}]}`, ` {"role" : "x" , "parts" : [ ] } `, `{"role":"x"} x`,
		`{"parts":[{"type":"text"},]}`, `{"role":"\x01"}`, `[]`, `null`, `{"parts":{}}`, `{"role":5}`,
		`{"parts":[{"image":{"mime_type":"image/png","data":"aGk="}}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		compareDecoders(t, data)
	})
}

// TestUnmarshalMergesLikeEncodingJSON: decoding into a Message that holds
// data keeps what the JSON does not mention, as encoding/json does.
func TestUnmarshalMergesLikeEncodingJSON(t *testing.T) {
	for _, data := range []string{`{"parts":[]}`, `{"role":"tool"}`, `null`, `{"parts":[{"text":"new"}]}`} {
		got := Message{Role: RoleUser, Parts: []Part{{Type: PartText, Text: "old"}}}
		want := messageTags{Role: RoleUser, Parts: []Part{{Type: PartText, Text: "old"}}}
		if err := json.Unmarshal([]byte(data), &got); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(data), &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(Message(want), got) {
			t.Errorf("%s: got %#v, want %#v", data, got, want)
		}
	}
}

// TestMessageJSONKnowsEveryField keeps the methods in step with the types:
// a field they do not write would be lost, so a new one must be added to
// appendJSON (and, for speed, to msgDecoder).
func TestMessageJSONKnowsEveryField(t *testing.T) {
	known := map[string]string{
		"Message":    "parts role",
		"Part":       "image reasoning text tool_call tool_result type", // image is read the slow way on purpose
		"Reasoning":  "encrypted id protocol redacted signature text",
		"ToolCall":   "arguments id name signature",
		"ToolResult": "call_id content is_error name",
		"Image":      "data mime_type url",
	}
	for _, v := range []any{Message{}, Part{}, Reasoning{}, ToolCall{}, ToolResult{}, Image{}} {
		typ := reflect.TypeOf(v)
		var names []string
		for f := range typ.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			names = append(names, name)
		}
		sort.Strings(names)
		if got := strings.Join(names, " "); got != known[typ.Name()] {
			t.Errorf("providers.%s has JSON fields %q; message_json.go knows %q: update appendJSON and msgDecoder", typ.Name(), got, known[typ.Name()])
		}
	}
}

func BenchmarkMessageJSON(b *testing.B) {
	m := Message{Role: RoleAssistant, Parts: []Part{
		{Type: PartReasoning, Reasoning: &Reasoning{Protocol: ProtocolAnthropic, Text: strings.Repeat("thinking about it. ", 20), Signature: strings.Repeat("c2ln", 50)}},
		{Type: PartText, Text: "Let me fetch it and check the failing step."},
		{Type: PartToolCall, ToolCall: &ToolCall{ID: "call_1", Name: "tavo_web_fetch", Arguments: `{"url":"https://example.com/log"}`}},
	}}
	data, _ := json.Marshal(m)
	b.Run("UnmarshalJSON", func(b *testing.B) {
		for b.Loop() {
			var got Message
			if err := got.UnmarshalJSON(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("tags", func(b *testing.B) {
		for b.Loop() {
			var got messageTags
			if err := json.Unmarshal(data, &got); err != nil {
				b.Fatal(err)
			}
		}
	})
}
