package fake

import (
	"net/http"
	"strings"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// ModelID is the one model the fake lists at its model-list endpoints.
const ModelID = "fake-model"

// isModelList reports whether r asks for a protocol's model list: GET
// {base}/models (OpenAI, Responses), {base}/v1/models (Anthropic) or
// {base}/v1beta/models (Gemini), as `tavo profile diagnose` sends.
func isModelList(r *http.Request) bool {
	return r.Method == http.MethodGet && strings.HasSuffix(strings.TrimRight(r.URL.Path, "/"), "/models")
}

// serveModels answers a model-list request with the list the real API
// sends, naming ModelID. It consumes no queued reply, since a probe of the
// model list comes before the turns a script plays, but a queued reply's
// protocol says which format to use. The request is recorded as any other.
// Like the fake's other endpoints it does not check the key.
func (s *Server) serveModels(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	protocol := providers.Protocol("")
	if len(s.queue) > 0 {
		protocol = s.queue[0].Protocol
	}
	s.mu.Unlock()
	if protocol == "" {
		protocol = modelListProtocol(r)
	}
	var body any
	switch protocol {
	case providers.ProtocolAnthropic:
		// GET /v1/models: https://docs.anthropic.com/en/api/models-list
		body = map[string]any{
			"data": []any{map[string]any{
				"type": "model", "id": ModelID, "display_name": "Fake Model", "created_at": "2025-01-01T00:00:00Z",
			}},
			"has_more": false, "first_id": ModelID, "last_id": ModelID,
		}
	case providers.ProtocolGemini:
		// GET /v1beta/models: https://ai.google.dev/api/models#method:-models.list
		body = map[string]any{
			"models": []any{map[string]any{
				"name": "models/" + ModelID, "version": "001", "displayName": "Fake Model",
				"description":     "A scripted model for tests.",
				"inputTokenLimit": 1048576, "outputTokenLimit": 65536,
				"supportedGenerationMethods": []string{"generateContent", "countTokens"},
			}},
		}
	default:
		// GET /v1/models: https://platform.openai.com/docs/api-reference/models/list
		body = map[string]any{
			"object": "list",
			"data":   []any{map[string]any{"id": ModelID, "object": "model", "created": 1735689600, "owned_by": "fake"}},
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.Write(mustJSON(body))
}

// modelListProtocol guesses the protocol of a model-list request, whose
// path alone does not say (/v1/models is OpenAI's and Anthropic's): by the
// headers only that protocol sends, else by Gemini's versioned path, else
// OpenAI, whose format Responses shares.
func modelListProtocol(r *http.Request) providers.Protocol {
	path := strings.TrimSuffix(strings.TrimRight(r.URL.Path, "/"), "/models")
	version := path[strings.LastIndexByte(path, '/')+1:]
	switch {
	case r.Header.Get("Anthropic-Version") != "" || r.Header.Get("X-Api-Key") != "":
		return providers.ProtocolAnthropic
	case r.Header.Get("X-Goog-Api-Key") != "" || r.URL.Query().Has("key") || strings.HasPrefix(version, "v1beta") || strings.HasPrefix(version, "v1alpha"):
		return providers.ProtocolGemini
	}
	return providers.ProtocolOpenAI
}
