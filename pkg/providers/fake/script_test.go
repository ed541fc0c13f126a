package fake

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

func TestReadScript(t *testing.T) {
	replies, err := ReadScript(strings.NewReader(`[
		{"text": "Hello!", "usage": {"input_tokens": 10, "output_tokens": 2}},
		{"tool_calls": [{"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}], "interleave": true},
		{"status": 429, "headers": {"retry-after": "0"}, "error": {"message": "Rate limit reached", "code": "rate_limit_exceeded"}},
		{"steps": [{"text": "Hel"}, {"delay": "5ms", "text": "lo"}, {"cut": true}]}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	if len(replies) != 4 || replies[0].Usage.InputTokens != 10 || replies[1].ToolCalls[0].Name != "get_weather" ||
		replies[2].Error.Code != "rate_limit_exceeded" || !replies[3].Steps[2].Cut {
		t.Fatalf("replies %+v", replies)
	}
	for _, bad := range []string{`[{"txet": "typo"}]`, `{"text": "not a list"}`, `[] []`, `[{"delay": true}]`} {
		if _, err := ReadScript(strings.NewReader(bad)); err == nil {
			t.Errorf("ReadScript(%s) accepted", bad)
		}
	}
}

func TestLoadScriptResolvesFixtures(t *testing.T) {
	dir := t.TempDir()
	local := "# local\nHTTP 200\ncontent-type: application/json\n\n{\"local\":true}"
	if err := os.WriteFile(filepath.Join(dir, "mine.http"), []byte(local), 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "script.json")
	os.WriteFile(script, []byte(`[{"fixture":"mine.http"}]`), 0o644)
	replies, err := LoadScript(script)
	if err != nil {
		t.Fatal(err)
	}
	if replies[0].Raw != local || replies[0].Fixture != "" {
		t.Fatalf("reply %+v", replies[0])
	}
	os.WriteFile(script, []byte(`[{"fixture":"missing.http"}]`), 0o644)
	if _, err := LoadScript(script); err == nil || !strings.Contains(err.Error(), "missing.http") {
		t.Fatalf("err = %v", err)
	}
	if _, err := LoadScript(filepath.Join(dir, "nope.json")); err == nil {
		t.Fatal("missing script accepted")
	}
}

func TestMainServesScript(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "script.json")
	os.WriteFile(script, []byte(`[{"text":"from script","stream":false}]`), 0o644)
	reqFile := filepath.Join(dir, "requests.ndjson")
	urlFile := filepath.Join(dir, "url.txt")

	ctx, cancel := context.WithCancel(context.Background())
	stdoutR, stdoutW := io.Pipe()
	done := make(chan int)
	go func() {
		done <- run(ctx, []string{"-script", script, "-requests", reqFile, "-url-file", urlFile}, stdoutW, io.Discard)
		stdoutW.Close()
	}()
	url, err := bufio.NewReader(stdoutR).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	url = strings.TrimSpace(url)
	if b, _ := os.ReadFile(urlFile); strings.TrimSpace(string(b)) != url {
		t.Fatalf("url file %q, stdout %q", b, url)
	}
	req, _ := http.NewRequest(http.MethodPost, url+"/chat/completions", strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`))
	authorize(req)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if gjson.GetBytes(body, "choices.0.message.content").String() != "from script" {
		t.Fatalf("body %s", body)
	}
	cancel()
	go io.Copy(io.Discard, stdoutR)
	if code := <-done; code != 0 {
		t.Fatalf("exit %d", code)
	}
	rec, _ := os.ReadFile(reqFile)
	if gjson.Get(string(rec), "body.model").String() != "m" {
		t.Fatalf("recorded %q", rec)
	}
}

func TestMainUsage(t *testing.T) {
	var stderr strings.Builder
	if code := run(context.Background(), nil, io.Discard, &stderr); code != 2 || !strings.Contains(stderr.String(), "usage") {
		t.Fatalf("code %d stderr %q", code, stderr.String())
	}
	if code := run(context.Background(), []string{"-script", "/nonexistent.json"}, io.Discard, io.Discard); code != 1 {
		t.Fatalf("code %d", code)
	}
}
