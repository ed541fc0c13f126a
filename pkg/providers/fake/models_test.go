package fake

import (
	"io"
	"net/http"
	"testing"

	"github.com/tidwall/gjson"
)

func TestModelListPerProtocol(t *testing.T) {
	srv := NewServer(t)
	srv.Enqueue(Reply{Text: "kept for the next turn"})
	for _, tt := range []struct {
		name, path string
		header     map[string]string
		want       string // a gjson path that must name ModelID
	}{
		{"openai", "/v1/models", map[string]string{"Authorization": "Bearer k"}, `data.#(object=="model").id`},
		{"anthropic", "/v1/models", map[string]string{"X-Api-Key": "k", "Anthropic-Version": "2023-06-01"}, `data.#(type=="model").id`},
		{"anthropic without a key", "/proxy/v1/models", map[string]string{"Anthropic-Version": "2023-06-01"}, `data.0.id`},
		{"gemini", "/v1beta/models", map[string]string{"X-Goog-Api-Key": "k"}, `models.#(name=="models/fake-model").displayName`},
		{"gemini without a key", "/g/v1beta/models", nil, `models.0.name`},
	} {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+tt.path, nil)
		for k, v := range tt.header {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" || !gjson.GetBytes(body, tt.want).Exists() {
			t.Errorf("%s: HTTP %d %s", tt.name, resp.StatusCode, body)
		}
		if tt.name == "openai" && gjson.GetBytes(body, "object").String() != "list" {
			t.Errorf("openai list: %s", body)
		}
		if tt.name == "anthropic" && gjson.GetBytes(body, "has_more").Type != gjson.False {
			t.Errorf("anthropic list: %s", body)
		}
	}
	if srv.Pending() != 1 {
		t.Fatalf("a model list consumed a queued reply: %d left", srv.Pending())
	}
	reqs := srv.Requests()
	if len(reqs) != 5 || reqs[1].Method != http.MethodGet || reqs[1].Path != "/v1/models" || reqs[1].Header.Get("X-Api-Key") != "k" {
		t.Fatalf("recorded: %+v", reqs)
	}
}

func TestModelListProtocolFromQueue(t *testing.T) {
	srv := NewServer(t)
	srv.Enqueue(Reply{Protocol: "gemini", Text: "hi"})
	resp, err := http.Get(srv.URL + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if !gjson.GetBytes(body, "models.0.name").Exists() {
		t.Fatalf("queued protocol ignored: %s", body)
	}
}
