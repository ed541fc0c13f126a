package providers

import "net/http"

// Auth says how a protocol sends the API key.
type Auth struct {
	// Header is the header's name: Authorization, X-Api-Key, …
	Header string
	// Prefix goes before the key, such as "Bearer ".
	Prefix string
}

// JSONHeader returns the headers every codec sends: a JSON body from tavo,
// and an Accept of text/event-stream for a streamed answer, application/json
// otherwise.
func JSONHeader(stream bool) http.Header {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("User-Agent", "tavo")
	if stream {
		h.Set("Accept", "text/event-stream")
	} else {
		h.Set("Accept", "application/json")
	}
	return h
}

// RequestHeader returns the headers of a request under cfg, each layer
// setting over the ones before: JSONHeader(stream); the protocol's fixed
// headers (Anthropic's version); the API key, sent as auth says, or bare in
// cfg.AuthHeader when the profile names one (Azure's api-key); and last the
// profile's own cfg.Headers, so a profile can override any of them. No key
// means no auth header, as local servers want.
func RequestHeader(cfg Config, stream bool, auth Auth, fixed map[string]string) http.Header {
	h := JSONHeader(stream)
	for k, v := range fixed {
		h.Set(k, v)
	}
	if cfg.APIKey != "" {
		if cfg.AuthHeader != "" {
			h.Set(cfg.AuthHeader, cfg.APIKey)
		} else {
			h.Set(auth.Header, auth.Prefix+cfg.APIKey)
		}
	}
	for k, v := range cfg.Headers {
		h.Set(k, v)
	}
	return h
}
