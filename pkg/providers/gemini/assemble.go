package gemini

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// assembler builds a response from GenerateContentResponse chunks (one for a
// non-streamed answer). Consecutive text parts, and consecutive thoughts,
// join into one part each.
type assembler struct {
	parts      []*piece
	finish     string
	model      string
	responseID string
	calls      int
	usage      providers.Usage
	blocked    string
}

// piece is one canonical part being assembled.
type piece struct {
	typ       providers.PartType
	thought   bool
	text      strings.Builder
	signature string
	call      *providers.ToolCall
}

// chunk applies one GenerateContentResponse. Text and thoughts reach sink
// when stream is set.
func (a *assembler) chunk(root gjson.Result, sink providers.Sink) {
	// One pass over the keys: chunks arrive by the thousand, and each Get
	// would scan the chunk again.
	var candidates, usage gjson.Result
	root.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "candidates":
			candidates = v
		case "usageMetadata":
			usage = v
		case "modelVersion":
			if v.Str != "" {
				a.model = v.Str
			}
		case "responseId":
			if v.Str != "" {
				a.responseID = v.Str
			}
		case "promptFeedback":
			if r := v.Get("blockReason").String(); r != "" {
				a.blocked = r
			}
		}
		return true
	})
	if u := usage; u.IsObject() {
		// Gemini repeats the running totals on every chunk.
		thoughts := int(u.Get("thoughtsTokenCount").Int())
		a.usage = providers.Usage{
			InputTokens:     int(u.Get("promptTokenCount").Int() + u.Get("toolUsePromptTokenCount").Int()),
			OutputTokens:    int(u.Get("candidatesTokenCount").Int()) + thoughts,
			CachedTokens:    int(u.Get("cachedContentTokenCount").Int()),
			ReasoningTokens: thoughts,
		}
	}
	// tavo asks for one candidate; only the first is read.
	cand := candidates.Get("0")
	cand.Get("content.parts").ForEach(func(_, p gjson.Result) bool {
		if p.IsObject() {
			a.part(p, sink)
		}
		return true
	})
	if f := cand.Get("finishReason").String(); f != "" {
		a.finish = f
	}
}

// part applies one Part.
func (a *assembler) part(p gjson.Result, sink providers.Sink) {
	sig := p.Get("thoughtSignature").String()
	if fc := p.Get("functionCall"); fc.IsObject() {
		args := "{}"
		if v := fc.Get("args"); v.IsObject() {
			args = compact(v.Raw)
		}
		id := fc.Get("id").String()
		if id == "" {
			id = a.callID(fc.Get("name").String(), args)
		}
		a.calls++
		a.parts = append(a.parts, &piece{typ: providers.PartToolCall, call: &providers.ToolCall{ID: id, Name: fc.Get("name").String(), Arguments: args, Signature: sig}})
		return
	}
	text := p.Get("text")
	if p.Get("thought").Bool() {
		last := a.last()
		if last == nil || last.typ != providers.PartReasoning || !last.thought || last.signature != "" {
			last = &piece{typ: providers.PartReasoning, thought: true}
			a.parts = append(a.parts, last)
		}
		last.text.WriteString(text.String())
		last.signature = sig
		if text.String() != "" {
			sink.ReasoningDelta(text.String())
		}
		return
	}
	if text.Exists() && text.String() != "" {
		last := a.last()
		if last == nil || last.typ != providers.PartText {
			last = &piece{typ: providers.PartText}
			a.parts = append(a.parts, last)
		}
		last.text.WriteString(text.String())
		sink.TextDelta(text.String())
	}
	if sig != "" {
		// A signature on text (or on an empty part) is kept as reasoning
		// placed after that text, and sent back on it.
		a.parts = append(a.parts, &piece{typ: providers.PartReasoning, signature: sig})
	}
	// inlineData, executableCode and other parts carry nothing tavo keeps.
}

func (a *assembler) last() *piece {
	if len(a.parts) == 0 {
		return nil
	}
	return a.parts[len(a.parts)-1]
}

// callID makes a stable id for a call Gemini sent without one: the same
// response always yields the same ids, and different responses differ.
func (a *assembler) callID(name, args string) string {
	h := fnv.New32a()
	if a.responseID != "" {
		h.Write([]byte(a.responseID))
	} else {
		h.Write([]byte(name + "\x00" + args))
	}
	return fmt.Sprintf("%s%08x_%d", synthPrefix, h.Sum32(), a.calls)
}

// compact removes the layout of a pretty-printed JSON value: arguments are
// shown to people and models, and Gemini's non-streamed answers are indented.
func compact(raw string) string {
	var b bytes.Buffer
	if json.Compact(&b, []byte(raw)) != nil {
		return raw
	}
	return b.String()
}

// response builds the canonical message.
func (a *assembler) response() *providers.Response {
	msg := providers.Message{Role: providers.RoleAssistant, Parts: []providers.Part{}}
	for _, p := range a.parts {
		switch p.typ {
		case providers.PartToolCall:
			msg.Parts = append(msg.Parts, providers.Part{Type: providers.PartToolCall, ToolCall: p.call})
		case providers.PartReasoning:
			msg.Parts = append(msg.Parts, providers.Part{Type: providers.PartReasoning, Reasoning: &providers.Reasoning{
				Protocol: providers.ProtocolGemini, Text: p.text.String(), Signature: p.signature,
			}})
		case providers.PartText:
			msg.Parts = append(msg.Parts, providers.Part{Type: providers.PartText, Text: p.text.String()})
		}
	}
	finish := normaliseFinish(a.finish)
	if a.calls > 0 && finish == providers.FinishStop {
		finish = providers.FinishToolCalls
	}
	return &providers.Response{Message: msg, FinishReason: finish, Usage: a.usage, Model: a.model}
}

// normaliseFinish maps finishReason to the canonical set.
func normaliseFinish(s string) providers.FinishReason {
	switch s {
	case "STOP":
		return providers.FinishStop
	case "MAX_TOKENS":
		return providers.FinishLength
	case "SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY", "IMAGE_PROHIBITED_CONTENT", "IMAGE_RECITATION":
		return providers.FinishContentFilter
	default:
		// MALFORMED_FUNCTION_CALL, UNEXPECTED_TOOL_CALL, LANGUAGE, OTHER, …
		return providers.FinishOther
	}
}
