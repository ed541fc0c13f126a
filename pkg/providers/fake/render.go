package fake

import (
	"net/http"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// renderer turns protocol-neutral steps into one protocol's wire format. A
// new one is made for every request, so it may keep per-response state.
// Adding a protocol means adding a renderer and a case in newRenderer.
type renderer interface {
	// streamContentType is the Content-Type of a streamed answer.
	streamContentType() string
	// streamStart is written after the headers (Anthropic's message_start).
	streamStart() []byte
	// streamStep renders one content step (text, reasoning, tool call,
	// finish, usage, error) as stream events; it may return nothing.
	streamStep(s Step) []byte
	// streamEnd closes the stream; noDone leaves out an end marker.
	streamEnd(noDone bool) []byte
	// whole renders the steps as one non-streamed JSON answer.
	whole(steps []Step) (status int, body []byte)
	// errorBody renders an error envelope.
	errorBody(e *APIError, status int) []byte
}

// planner is implemented by renderers that must see every step before the
// stream starts (Anthropic's message_start already carries the input usage).
type planner interface {
	plan(steps []Step)
}

// headerAdapter is implemented by renderers whose protocol carries some
// scripted headers elsewhere: Gemini has no Retry-After header and puts the
// wait in the error body (RetryInfo.retryDelay) instead.
type headerAdapter interface {
	adaptHeaders(h http.Header)
}

// requestInfo is what renderers need to know about the request.
type requestInfo struct {
	seq          int
	path         string
	model        string
	stream       bool
	includeUsage bool
	// includeEncrypted is a Responses request's include:["reasoning.encrypted_content"].
	includeEncrypted bool
}

func parseRequestInfo(seq int, path string, body []byte) requestInfo {
	root := gjson.ParseBytes(body)
	info := requestInfo{
		seq:   seq,
		path:  path,
		model: root.Get("model").String(),
		// Gemini says "stream" in the path, the others in the body.
		stream:       root.Get("stream").Bool() || strings.Contains(path, ":streamGenerateContent"),
		includeUsage: root.Get("stream_options.include_usage").Bool(),
	}
	for _, v := range root.Get("include").Array() {
		if v.String() == "reasoning.encrypted_content" {
			info.includeEncrypted = true
		}
	}
	if info.model == "" {
		info.model = geminiModel(path)
	}
	return info
}

// geminiModel reads the model from a Gemini path
// (/v1beta/models/gemini-2.5-flash:generateContent), where it is not in the body.
func geminiModel(path string) string {
	i := strings.LastIndex(path, "/models/")
	if i < 0 {
		return ""
	}
	model := path[i+len("/models/"):]
	if j := strings.IndexByte(model, ':'); j >= 0 {
		model = model[:j]
	}
	return model
}

// protocolForPath guesses the protocol from the endpoint a codec called.
func protocolForPath(path string) providers.Protocol {
	switch {
	case strings.HasSuffix(path, "/chat/completions"):
		return providers.ProtocolOpenAI
	case strings.HasSuffix(path, "/responses"):
		return providers.ProtocolOpenAIResponses
	case strings.HasSuffix(path, "/messages"):
		return providers.ProtocolAnthropic
	case strings.Contains(path, ":generateContent") || strings.Contains(path, ":streamGenerateContent"):
		return providers.ProtocolGemini
	}
	return providers.ProtocolOpenAI
}

// newRenderer returns the renderer for p, or nil when the fake cannot speak p yet.
func newRenderer(p providers.Protocol, info requestInfo, model string) renderer {
	if model == "" {
		model = info.model
	}
	switch p {
	case providers.ProtocolOpenAI:
		return newOpenAIRenderer(info, model)
	case providers.ProtocolOpenAIResponses:
		return newResponsesRenderer(info, model)
	case providers.ProtocolAnthropic:
		return newAnthropicRenderer(info, model)
	case providers.ProtocolGemini:
		return newGeminiRenderer(info, model)
	}
	return nil
}
