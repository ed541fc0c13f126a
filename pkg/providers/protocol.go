package providers

import (
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// ProtocolInfo is everything tavo knows about one wire protocol apart from
// its codec: where the official API is, which environment variables point
// at it and hold its key, how the key is sent, the headers every request
// carries and where the API's paths begin. Codecs, config resolution,
// `tavo profile diagnose` and help texts all read it from the one table
// behind Lookup; the codec constructors are in package providers/codecs,
// which can import the codecs.
type ProtocolInfo struct {
	// Protocol is the name written in profiles and --provider.
	Protocol Protocol
	// DefaultBaseURL is the official API's base URL, used when neither
	// flag, profile nor BaseURLEnv names one.
	DefaultBaseURL string
	// DefaultModel is the model a run uses on the official API (or the
	// proxy BaseURLEnv names) when neither flag, profile nor TAVO_MODEL
	// names one: a current, cheap model every account can use, so that the
	// first command works with only a key set. docs/providers.md lists them.
	DefaultModel string
	// BaseURLEnv is the environment variable that may name the base URL.
	BaseURLEnv string
	// KeyEnvs are the environment variables that hold the official API's
	// key, in the order they are tried; the first is the one to suggest.
	KeyEnvs []string
	// Auth is how the key is sent unless a profile names its own header.
	Auth Auth
	// Header holds the fixed headers of every request (Anthropic's API
	// version); a profile's own headers may override them.
	Header map[string]string
	// Version is the path segment the API's paths sit under (v1 for
	// Anthropic, v1beta for Gemini), added to a base URL that does not
	// already end in one; "" when the base URL includes it (OpenAI's /v1).
	Version string
	// OwnedKeys are the request-body fields the codec sets from tavo's own
	// settings, each with the flag (or source) that sets it. A --param or a
	// profile's params naming one is refused: it would silently replace
	// what the run records (the model, the conversation, the tools). Gemini
	// keys inside generationConfig are listed by their own names, since a
	// --param reaches them there.
	OwnedKeys map[string]string
	// hasVersion says whether a base URL's last path segment already names
	// a version, so that a proxy configured with …/v1 gets no second one.
	hasVersion func(segment string) bool
}

// OpenAI's two protocols share one API: its root, variables, key and the
// default model are written once here.
const (
	openAIDefaultModel = "gpt-5-mini"
	openAIBaseURL      = "https://api.openai.com/v1"
	openAIBaseURLEnv   = "OPENAI_BASE_URL"
	openAIKeyEnv       = "OPENAI_API_KEY"
)

var openAIAuth = Auth{Header: "Authorization", Prefix: "Bearer "}

// protocols is the table. Its order is the order of AllProtocols, of help
// texts and of error messages.
var protocols = [...]ProtocolInfo{
	{
		Protocol:       ProtocolOpenAI,
		DefaultModel:   openAIDefaultModel,
		DefaultBaseURL: openAIBaseURL,
		BaseURLEnv:     openAIBaseURLEnv,
		KeyEnvs:        []string{openAIKeyEnv},
		Auth:           openAIAuth,
		OwnedKeys: map[string]string{
			"model": ownModel, "messages": ownConversation, "tools": ownTools, "stream": ownStream,
			"max_completion_tokens": ownMaxOutput, "response_format": ownSchema,
		},
	},
	{
		Protocol:       ProtocolOpenAIResponses,
		DefaultModel:   openAIDefaultModel,
		DefaultBaseURL: openAIBaseURL,
		BaseURLEnv:     openAIBaseURLEnv,
		KeyEnvs:        []string{openAIKeyEnv},
		Auth:           openAIAuth,
		OwnedKeys: map[string]string{
			"model": ownModel, "input": ownConversation, "instructions": ownSystem, "tools": ownTools,
			"stream": ownStream, "max_output_tokens": ownMaxOutput,
		},
	},
	{
		Protocol:       ProtocolAnthropic,
		DefaultModel:   "claude-haiku-4-5",
		DefaultBaseURL: "https://api.anthropic.com",
		BaseURLEnv:     "ANTHROPIC_BASE_URL",
		KeyEnvs:        []string{"ANTHROPIC_API_KEY"},
		Auth:           Auth{Header: "X-Api-Key"},
		Header:         map[string]string{"Anthropic-Version": "2023-06-01"},
		Version:        "v1",
		OwnedKeys: map[string]string{
			"model": ownModel, "messages": ownConversation, "system": ownSystem, "tools": ownTools,
			"stream": ownStream, "max_tokens": ownMaxOutput, "output_config": ownSchema,
		},
		hasVersion: func(s string) bool { return s == "v1" },
	},
	{
		Protocol:       ProtocolGemini,
		DefaultModel:   "gemini-2.5-flash",
		DefaultBaseURL: "https://generativelanguage.googleapis.com",
		BaseURLEnv:     "GOOGLE_GEMINI_BASE_URL",
		KeyEnvs:        []string{"GEMINI_API_KEY", "GOOGLE_API_KEY"},
		Auth:           Auth{Header: "X-Goog-Api-Key"},
		Version:        "v1beta",
		OwnedKeys: map[string]string{
			"model": ownModel, "contents": ownConversation, "systemInstruction": ownSystem, "tools": ownTools,
			"maxOutputTokens": ownMaxOutput, "responseSchema": ownSchema, "responseJsonSchema": ownSchema,
		},
		// v1beta, the stable v1 or v1alpha: whichever a proxy names.
		hasVersion: func(s string) bool { return strings.HasPrefix(s, "v1") },
	},
}

// The settings that own a body field, as OwnedKeys names them.
const (
	ownModel        = "-m/--model"
	ownConversation = "the prompt, --attach and --session"
	ownSystem       = "--system"
	ownTools        = "-T/--tools and --tool"
	ownStream       = "--no-stream"
	ownMaxOutput    = "--max-output-tokens"
	ownSchema       = "--schema"
)

// Lookup returns the table entry of p, and false when tavo does not know p.
// The entry is a copy: changing it changes nothing else.
func Lookup(p Protocol) (ProtocolInfo, bool) {
	for _, info := range protocols {
		if info.Protocol == p {
			info.KeyEnvs = slices.Clone(info.KeyEnvs)
			info.Header = maps.Clone(info.Header)
			info.OwnedKeys = maps.Clone(info.OwnedKeys)
			return info, true
		}
	}
	return ProtocolInfo{}, false
}

// AllProtocols returns every protocol tavo knows, in the table's order.
func AllProtocols() []Protocol {
	out := make([]Protocol, len(protocols))
	for i, info := range protocols {
		out[i] = info.Protocol
	}
	return out
}

// ProtocolNames returns the names of AllProtocols, for help texts and
// validation messages.
func ProtocolNames() []string {
	out := make([]string, len(protocols))
	for i, info := range protocols {
		out[i] = string(info.Protocol)
	}
	return out
}

// APIRoot parses base (DefaultBaseURL when empty) and adds Version unless
// the base already ends in a version segment: the URL every path of the
// protocol (/chat/completions, /messages, /models) goes below.
func (i ProtocolInfo) APIRoot(base string) (*url.URL, error) {
	u, err := BaseURL(i.Protocol, base, i.DefaultBaseURL)
	if err != nil {
		return nil, err
	}
	if i.Version != "" && !i.hasVersion(u.Path[strings.LastIndexByte(u.Path, '/')+1:]) {
		u.Path += "/" + i.Version
	}
	return u, nil
}

// Endpoint is the URL of path below the API root of base, with query set
// over the base's own query parameters.
func (i ProtocolInfo) Endpoint(base, path string, query map[string]string) (string, error) {
	u, err := i.APIRoot(base)
	if err != nil {
		return "", err
	}
	return JoinURL(u, path, query), nil
}

// RequestHeader returns the headers of a request under cfg: the package's
// RequestHeader with the protocol's auth and fixed headers.
func (i ProtocolInfo) RequestHeader(cfg Config, stream bool) http.Header {
	return RequestHeader(cfg, stream, i.Auth, i.Header)
}

// ModelsPath is the model-list endpoint below every protocol's API root:
// GET {base}/models (OpenAI, Responses), {base}/v1/models (Anthropic),
// {base}/v1beta/models (Gemini).
const ModelsPath = "/models"

// ModelsRequest returns the URL and headers of a GET of p's model list under
// cfg: a cheap authenticated request that every real server of p answers,
// which `tavo profile diagnose` sends. They are built by the same code as
// the codecs' requests, so the probe goes where a run goes (a base URL that
// ends in /v1 gets no second /v1) with the headers a run sends (the
// profile's auth header, query and header overrides included).
func ModelsRequest(p Protocol, cfg Config) (string, http.Header, error) {
	info, ok := Lookup(p)
	if !ok {
		return "", nil, UnknownProtocolError(p)
	}
	target, err := info.Endpoint(cfg.BaseURL, ModelsPath, cfg.Query)
	if err != nil {
		return "", nil, err
	}
	return target, info.RequestHeader(cfg, false), nil
}

// UnknownProtocolError is the error for a protocol the table lacks,
// naming those it has.
func UnknownProtocolError(p Protocol) error {
	names := ProtocolNames()
	list := strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	return fmt.Errorf("protocol %q is not supported (use %s)", p, list)
}
