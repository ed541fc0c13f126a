package providers

import (
	"net/http"
	"reflect"
	"testing"
)

func TestJSONHeader(t *testing.T) {
	for _, tt := range []struct {
		stream bool
		accept string
	}{{true, "text/event-stream"}, {false, "application/json"}} {
		want := http.Header{
			"Content-Type": {"application/json"},
			"User-Agent":   {"tavo"},
			"Accept":       {tt.accept},
		}
		if got := JSONHeader(tt.stream); !reflect.DeepEqual(got, want) {
			t.Errorf("JSONHeader(%v) = %v, want %v", tt.stream, got, want)
		}
	}
}

func TestRequestHeader(t *testing.T) {
	bearer := Auth{Header: "Authorization", Prefix: "Bearer "}
	for _, tt := range []struct {
		name   string
		cfg    Config
		auth   Auth
		fixed  map[string]string
		want   map[string]string
		absent []string
	}{
		{name: "bearer key", cfg: Config{APIKey: "k1"}, auth: bearer,
			want: map[string]string{"Authorization": "Bearer k1", "Accept": "text/event-stream", "Content-Type": "application/json", "User-Agent": "tavo"}},
		{name: "key header without prefix", cfg: Config{APIKey: "k1"}, auth: Auth{Header: "X-Api-Key"},
			want: map[string]string{"X-Api-Key": "k1"}, absent: []string{"Authorization"}},
		{name: "profile's auth header takes the bare key", cfg: Config{APIKey: "k1", AuthHeader: "api-key"}, auth: bearer,
			want: map[string]string{"Api-Key": "k1"}, absent: []string{"Authorization"}},
		{name: "no key, no auth header", cfg: Config{AuthHeader: "api-key"}, auth: bearer,
			absent: []string{"Authorization", "Api-Key"}},
		{name: "fixed protocol headers", cfg: Config{APIKey: "k1"}, auth: Auth{Header: "X-Api-Key"}, fixed: map[string]string{"Anthropic-Version": "2023-06-01"},
			want: map[string]string{"Anthropic-Version": "2023-06-01", "X-Api-Key": "k1"}},
		{name: "profile headers override everything", auth: bearer, fixed: map[string]string{"Anthropic-Version": "2023-06-01"},
			cfg:  Config{APIKey: "k1", Headers: map[string]string{"anthropic-version": "2025-01-01", "Authorization": "Token t", "Accept": "*/*", "X-Extra": "e"}},
			want: map[string]string{"Anthropic-Version": "2025-01-01", "Authorization": "Token t", "Accept": "*/*", "X-Extra": "e"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := RequestHeader(tt.cfg, true, tt.auth, tt.fixed)
			for k, v := range tt.want {
				if got := h.Values(k); len(got) != 1 || got[0] != v {
					t.Errorf("%s = %q, want %q", k, got, v)
				}
			}
			for _, k := range tt.absent {
				if v, ok := h[http.CanonicalHeaderKey(k)]; ok {
					t.Errorf("%s sent as %q", k, v)
				}
			}
		})
	}
}
