package providertest

import "github.com/tavo-cli/tavo/pkg/providers"

// UserRequest is the standard request of the codec tests: a short system
// prompt and one user question about the weather in Boston, for model.
func UserRequest(model string, stream bool) *providers.Request {
	return &providers.Request{
		Model:    model,
		System:   "Be brief.",
		Messages: []providers.Message{Text(providers.RoleUser, "What is the weather in Boston?")},
		Stream:   stream,
	}
}

// WeatherTool is the tool the recorded fixtures call, under name (each
// provider's documentation names it its own way).
func WeatherTool(name string) providers.ToolSpec {
	return providers.ToolSpec{
		Name:        name,
		Description: "Get the current weather in a given location",
		Parameters:  []byte(`{"type":"object","properties":{"location":{"type":"string"}},"required":["location"]}`),
	}
}

// Text is a message of role that holds the one text s.
func Text(role providers.Role, s string) providers.Message {
	return providers.Message{Role: role, Parts: []providers.Part{{Type: providers.PartText, Text: s}}}
}

// Reasonings returns the reasoning blocks of m in order.
func Reasonings(m providers.Message) []providers.Reasoning {
	var out []providers.Reasoning
	for _, p := range m.Parts {
		if p.Type == providers.PartReasoning {
			out = append(out, *p.Reasoning)
		}
	}
	return out
}

// PictureQuestion is the first turn of the codecs' full conversations: the
// user asks "What is in this picture, and the weather?" with a PNG given
// inline (the bytes 0x89 'P' 'N' 'G', base64 "iVBORw==") and an image by
// URL (https://example.com/cat.jpg, no MIME type).
func PictureQuestion() providers.Message {
	return providers.Message{Role: providers.RoleUser, Parts: []providers.Part{
		{Type: providers.PartText, Text: "What is in this picture, and the weather?"},
		{Type: providers.PartImage, Image: &providers.Image{MIMEType: "image/png", Data: []byte{0x89, 'P', 'N', 'G'}}},
		{Type: providers.PartImage, Image: &providers.Image{URL: "https://example.com/cat.jpg"}},
	}}
}
