package fake

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/tavo-cli/tavo/pkg/providers"
)

const chatPath = "/chat/completions"

func post(t *testing.T, ctx context.Context, url, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+chatPath, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer test-key")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func readBody(t *testing.T, resp *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading body: %v", err)
	}
	return string(b)
}

// dataEvents returns the payloads of "data: " lines.
func dataEvents(body string) []string {
	var out []string
	for _, line := range strings.Split(body, "\n") {
		if p, ok := strings.CutPrefix(line, "data: "); ok {
			out = append(out, p)
		}
	}
	return out
}

// chatReq is the smallest valid Chat Completions request, not streamed.
const chatReq = `{"model":"gpt-test","messages":[{"role":"user","content":"hi"}]}`

const streamReq = `{"model":"gpt-test","messages":[{"role":"user","content":"hi"}],"stream":true,"stream_options":{"include_usage":true}}`

func TestFixturesReplayedByteForByte(t *testing.T) {
	dir := fixturesOrSkip(t)
	files, err := filepath.Glob(filepath.Join(dir, "scenarios", "openai-chat", "*.http"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, file := range files {
		name := "openai-chat/" + filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			srv := NewServer(t)
			srv.Enqueue(Reply{Fixture: name})
			resp := post(t, context.Background(), srv.URL, streamReq)
			got := readBody(t, resp)
			// The body is everything after the first blank line that
			// follows the status line.
			_, wantBody, _ := strings.Cut(string(raw), "\n\n")
			if got != wantBody {
				t.Fatalf("body differs from the fixture:\n%q\nwant\n%q", got, wantBody)
			}
			statusLine := strings.Fields(strings.Split(strings.Split(string(raw), "\nHTTP ")[1], "\n")[0])[0]
			if want := statusLine; resp.Status[:3] != want {
				t.Fatalf("status %s, want %s", resp.Status, want)
			}
			if ct := resp.Header.Get("Content-Type"); ct == "" || !strings.Contains(string(raw), "content-type: "+ct) {
				t.Fatalf("content-type %q not from the fixture", ct)
			}
		})
	}
}

func TestParseHTTP(t *testing.T) {
	rec, err := ParseHTTP([]byte("# comment\n# more\nHTTP 429\nretry-after: 2\nx-a: b\n\n{\"error\":{}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Status != 429 || rec.Header.Get("Retry-After") != "2" || rec.Header.Get("X-A") != "b" || string(rec.Body) != "{\"error\":{}}\n" {
		t.Fatalf("parsed %+v body %q", rec, rec.Body)
	}
	rec, err = ParseHTTP([]byte("HTTP/1.1 200 OK\r\nx-harness-eol: crlf\r\n\r\ndata: a\n\ndata: b\n\n"))
	if err != nil {
		t.Fatal(err)
	}
	if string(rec.Body) != "data: a\r\n\r\ndata: b\r\n\r\n" || rec.Header.Get("X-Harness-Eol") != "" {
		t.Fatalf("crlf body %q, headers %v", rec.Body, rec.Header)
	}
	for _, bad := range []string{"", "# only comments\n", "HTTP abc\n\n", "NOPE 200\n\n", "HTTP 200\nno colon here\n\n"} {
		if _, err := ParseHTTP([]byte(bad)); err == nil {
			t.Errorf("ParseHTTP(%q) accepted", bad)
		}
	}
}

func TestGeminiFixtureServedWithCRLF(t *testing.T) {
	fixturesOrSkip(t)
	srv := NewServer(t)
	srv.Enqueue(Fixture(t, "gemini/text.stream.http"))
	body := readBody(t, post(t, context.Background(), srv.URL, chatReq))
	if !strings.Contains(body, "\r\n\r\n") || strings.Contains(strings.ReplaceAll(body, "\r\n", ""), "\n") {
		t.Fatalf("body not CRLF-framed: %q", body[:min(len(body), 200)])
	}
}

func TestStreamRenderedLikeTheRealAPI(t *testing.T) {
	fixturesOrSkip(t)
	sch, _, err := compileComponent(schemaRef{"openai.trimmed.json", "CreateChatCompletionStreamResponse"})
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(t)
	srv.Enqueue(Reply{Reasoning: "think", Text: "Hello there", ToolCalls: []ToolCall{{Name: "f", Arguments: `{"a":1}`}, {Name: "g", Arguments: `{}`}}, Interleave: true, Usage: &Usage{InputTokens: 5, OutputTokens: 7, CachedTokens: 2, ReasoningTokens: 1}})
	body := readBody(t, post(t, context.Background(), srv.URL, streamReq))
	events := dataEvents(body)
	if events[len(events)-1] != "[DONE]" || !strings.HasSuffix(body, "data: [DONE]\n\n") {
		t.Fatalf("stream does not end in [DONE]: %q", body)
	}
	chunks := events[:len(events)-1]
	for i, c := range chunks {
		if err := validateWith(sch, []byte(c)); err != nil {
			t.Fatalf("chunk %d %s breaks CreateChatCompletionStreamResponse: %v", i, c, err)
		}
		if !gjson.Get(c, "usage").Exists() {
			t.Fatalf("chunk %d lacks usage (null) though include_usage was set: %s", i, c)
		}
	}
	first := gjson.Get(chunks[0], "choices.0.delta")
	if first.Get("role").String() != "assistant" || first.Get("content").Raw != `""` {
		t.Fatalf("first chunk delta = %s", first.Raw)
	}
	last := chunks[len(chunks)-1]
	if gjson.Get(last, "choices.#").Int() != 0 || gjson.Get(last, "usage.prompt_tokens").Int() != 5 ||
		gjson.Get(last, "usage.total_tokens").Int() != 12 || gjson.Get(last, "usage.prompt_tokens_details.cached_tokens").Int() != 2 ||
		gjson.Get(last, "usage.completion_tokens_details.reasoning_tokens").Int() != 1 {
		t.Fatalf("last chunk = %s", last)
	}
	if f := gjson.Get(chunks[len(chunks)-2], "choices.0.finish_reason").String(); f != "tool_calls" {
		t.Fatalf("finish = %q", f)
	}
	// Reassemble and check content, reasoning and interleaved tool calls.
	var text, reasoning strings.Builder
	args := map[int64]string{}
	var order []int64
	for _, c := range chunks {
		d := gjson.Get(c, "choices.0.delta")
		text.WriteString(d.Get("content").String())
		reasoning.WriteString(d.Get("reasoning_content").String())
		for _, tc := range d.Get("tool_calls").Array() {
			i := tc.Get("index").Int()
			args[i] += tc.Get("function.arguments").String()
			order = append(order, i)
		}
	}
	if text.String() != "Hello there" || reasoning.String() != "think" || args[0] != `{"a":1}` || args[1] != `{}` {
		t.Fatalf("text %q reasoning %q args %v", text.String(), reasoning.String(), args)
	}
	if !reflect.DeepEqual(order[:4], []int64{0, 1, 0, 1}) {
		t.Fatalf("fragments not interleaved: %v", order)
	}
}

// TestRenderedChunksHaveFixtureFields compares the rendered chunk shape to
// the recorded one, field by field.
func TestRenderedChunksHaveFixtureFields(t *testing.T) {
	dir := fixturesOrSkip(t)
	raw, err := os.ReadFile(filepath.Join(dir, "scenarios", "openai-chat", "tool_call.stream-usage.http"))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := ParseHTTP(raw)
	if err != nil {
		t.Fatal(err)
	}
	want := dataEvents(string(rec.Body))
	srv := NewServer(t)
	srv.Enqueue(Reply{ToolCalls: []ToolCall{{ID: "call_DdmO9pD3xa9XTPNJ32zg2hcA", Name: "get_current_weather", Arguments: `{"location":"Boston, MA","unit":"celsius"}`}}, Chunks: 2})
	got := dataEvents(readBody(t, post(t, context.Background(), srv.URL, streamReq)))
	keys := func(s, path string) string {
		var ks []string
		gjson.Get(s, path).ForEach(func(k, _ gjson.Result) bool {
			if k.String() != "obfuscation" {
				ks = append(ks, k.String())
			}
			return true
		})
		sort.Strings(ks)
		return strings.Join(ks, ",")
	}
	pairs := [][2]string{
		{want[0], got[0]},                    // role + first tool fragment
		{want[1], got[1]},                    // argument fragment
		{want[len(want)-3], got[len(got)-3]}, // finish
		{want[len(want)-2], got[len(got)-2]}, // usage
	}
	for i, p := range pairs {
		for _, path := range []string{"@this", "choices.0", "choices.0.delta", "choices.0.delta.tool_calls.0", "usage", "usage.prompt_tokens_details"} {
			if keys(p[0], path) != keys(p[1], path) {
				t.Errorf("pair %d %s: fields %q, fixture has %q\n got %s\nwant %s", i, path, keys(p[1], path), keys(p[0], path), p[1], p[0])
			}
		}
	}
	if got[len(got)-1] != "[DONE]" {
		t.Fatal("no [DONE]")
	}
}

func TestStreamWithoutIncludeUsage(t *testing.T) {
	srv := NewServer(t)
	srv.Enqueue(Reply{Text: "hi", Usage: &Usage{InputTokens: 1}})
	body := readBody(t, post(t, context.Background(), srv.URL, `{"model":"m","messages":[{"role":"user","content":"hi"}],"stream":true}`))
	if strings.Contains(body, `"usage"`) {
		t.Fatalf("usage sent though not asked for: %s", body)
	}
}

func TestJSONRenderedLikeTheRealAPI(t *testing.T) {
	fixturesOrSkip(t)
	sch, _, err := compileComponent(schemaRef{"openai.trimmed.json", "CreateChatCompletionResponse"})
	if err != nil {
		t.Fatal(err)
	}
	for _, reply := range []Reply{
		{Text: "Hello", Usage: &Usage{InputTokens: 3, OutputTokens: 1}},
		{ToolCalls: []ToolCall{{Name: "f", Arguments: `{"x":1}`}, {ID: "c2", Name: "g", Arguments: `{}`}}},
		{Reasoning: "hmm", Text: "ok", Finish: "length"},
	} {
		srv := NewServer(t)
		srv.Enqueue(reply)
		resp := post(t, context.Background(), srv.URL, `{"model":"gpt-x","messages":[{"role":"user","content":"hi"}]}`)
		body := readBody(t, resp)
		if resp.Header.Get("Content-Type") != "application/json" {
			t.Fatalf("content-type %q", resp.Header.Get("Content-Type"))
		}
		if err := validateWith(sch, []byte(body)); err != nil {
			t.Fatalf("%s breaks CreateChatCompletionResponse: %v", body, err)
		}
		m := gjson.Get(body, "choices.0.message")
		if m.Get("content").String() != reply.Text || gjson.Get(body, "model").String() != "gpt-x" {
			t.Fatalf("body %s", body)
		}
		if len(reply.ToolCalls) > 0 {
			if m.Get("content").Type != gjson.Null || m.Get("tool_calls.1.id").String() != "c2" || m.Get("tool_calls.0.function.arguments").String() != `{"x":1}` ||
				gjson.Get(body, "choices.0.finish_reason").String() != "tool_calls" {
				t.Fatalf("tool call body %s", body)
			}
		}
		if reply.Reasoning != "" && m.Get("reasoning_content").String() != "hmm" {
			t.Fatalf("reasoning missing: %s", body)
		}
	}
}

func TestErrorReplies(t *testing.T) {
	srv := NewServer(t)
	srv.Enqueue(
		Reply{Status: 429, Headers: map[string]string{"Retry-After": "3"}, Error: &APIError{Message: "slow down", Code: "rate_limit_exceeded", Type: "requests"}},
		Reply{Status: 502, Headers: map[string]string{"Content-Type": "text/html"}, Body: "<html>bad gateway</html>"},
		Reply{Error: &APIError{Message: "boom"}},
	)
	resp := post(t, context.Background(), srv.URL, chatReq)
	body := readBody(t, resp)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "3" {
		t.Fatalf("status %d headers %v", resp.StatusCode, resp.Header)
	}
	if body != `{"error":{"message":"slow down","type":"requests","param":null,"code":"rate_limit_exceeded"}}` {
		t.Fatalf("body %s", body)
	}
	resp = post(t, context.Background(), srv.URL, chatReq)
	if body := readBody(t, resp); resp.StatusCode != 502 || body != "<html>bad gateway</html>" || resp.Header.Get("Content-Type") != "text/html" {
		t.Fatalf("status %d body %q", resp.StatusCode, body)
	}
	resp = post(t, context.Background(), srv.URL, chatReq)
	if body := readBody(t, resp); resp.StatusCode != 500 || gjson.Get(body, "error.type").String() != "server_error" {
		t.Fatalf("status %d body %q", resp.StatusCode, body)
	}
}

func TestEmptyQueueFailsLoudly(t *testing.T) {
	srv := NewServer(t)
	resp := post(t, context.Background(), srv.URL, chatReq)
	body := readBody(t, resp)
	if resp.StatusCode != 500 || !strings.Contains(gjson.Get(body, "error.message").String(), "no scripted reply left for request 1") {
		t.Fatalf("status %d body %s", resp.StatusCode, body)
	}
}

func TestStreamFaults(t *testing.T) {
	t.Run("cut", func(t *testing.T) {
		srv := NewServer(t)
		srv.Enqueue(Reply{Steps: []Step{{Text: "Hel"}, {Text: "lo"}, {Cut: true}}})
		resp := post(t, context.Background(), srv.URL, streamReq)
		b, err := io.ReadAll(resp.Body)
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("err = %v, want unexpected EOF", err)
		}
		if !strings.Contains(string(b), `"content":"lo"`) || strings.Contains(string(b), "[DONE]") {
			t.Fatalf("body before the cut: %q", b)
		}
	})
	t.Run("error and raw", func(t *testing.T) {
		srv := NewServer(t)
		srv.Enqueue(Reply{Steps: []Step{{Text: "a"}, {Raw: "data: {not json\n\n"}, {Error: &APIError{Message: "The server had an error"}}}})
		events := dataEvents(readBody(t, post(t, context.Background(), srv.URL, streamReq)))
		n := len(events)
		if events[n-3] != "{not json" || gjson.Get(events[n-2], "error.message").String() != "The server had an error" || events[n-1] != "[DONE]" {
			t.Fatalf("events %q", events)
		}
	})
	t.Run("no done", func(t *testing.T) {
		srv := NewServer(t)
		srv.Enqueue(Reply{Text: "x", NoDone: true})
		if body := readBody(t, post(t, context.Background(), srv.URL, streamReq)); strings.Contains(body, "[DONE]") {
			t.Fatalf("body %q", body)
		}
	})
	t.Run("hang until client leaves", func(t *testing.T) {
		srv := NewServer(t)
		srv.Enqueue(Reply{Steps: []Step{{Text: "a"}, {Hang: true}}})
		ctx, cancel := context.WithCancel(context.Background())
		resp := post(t, ctx, srv.URL, streamReq)
		buf := make([]byte, 10)
		if _, err := io.ReadAtLeast(resp.Body, buf, 1); err != nil {
			t.Fatal(err)
		}
		cancel()
		if _, err := io.ReadAll(resp.Body); err == nil {
			t.Fatal("read after cancel succeeded")
		}
	})
	t.Run("hang ended by Close", func(t *testing.T) {
		srv := NewServer(nil)
		srv.Enqueue(Reply{Steps: []Step{{Hang: true}}}, Reply{Delay: Duration(1 << 62)})
		for range 2 {
			go func() {
				req, _ := http.NewRequest(http.MethodPost, srv.URL+chatPath, strings.NewReader(streamReq))
				authorize(req)
				resp, err := http.DefaultClient.Do(req)
				if err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
			}()
		}
		for len(srv.Requests()) < 2 {
			time.Sleep(time.Millisecond)
		}
		srv.Close() // must not block on the hanging handlers
		srv.Close() // and is idempotent
	})
}

func TestNonStreamCut(t *testing.T) {
	srv := NewServer(t)
	srv.Enqueue(Reply{Steps: []Step{{Text: "a"}, {Cut: true}}})
	req, _ := http.NewRequest(http.MethodPost, srv.URL+chatPath, strings.NewReader(chatReq))
	authorize(req)
	if _, err := http.DefaultClient.Do(req); err == nil {
		t.Fatal("request succeeded though the connection was cut")
	}
}

func TestRequestsRecorded(t *testing.T) {
	srv := NewServer(t)
	// The second request is not JSON and has no key: only a lax fake
	// answers it from the script.
	srv.Lax()
	var rec bytes.Buffer
	srv.RecordTo(&rec)
	srv.Enqueue(Reply{Text: "a"}, Reply{Body: "ok", Stream: Bool(false)})
	readBody(t, post(t, context.Background(), srv.URL, streamReq))
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/chat/completions?api-version=2024", strings.NewReader("not json"))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[0].Path != chatPath || reqs[0].Header.Get("Authorization") != "Bearer test-key" || string(reqs[0].Body) != streamReq {
		t.Fatalf("requests %+v", reqs)
	}
	if reqs[1].Query != "api-version=2024" || reqs[1].Path != "/v1/chat/completions" {
		t.Fatalf("second request %+v", reqs[1])
	}
	lines := strings.Split(strings.TrimSpace(rec.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("recorded %d lines", len(lines))
	}
	if gjson.Get(lines[0], "body.model").String() != "gpt-test" || gjson.Get(lines[0], "headers.Authorization").String() != "Bearer test-key" || gjson.Get(lines[0], "method").String() != "POST" {
		t.Fatalf("line 0 = %s", lines[0])
	}
	if gjson.Get(lines[1], "body").String() != "not json" || gjson.Get(lines[1], "query").String() != "api-version=2024" {
		t.Fatalf("line 1 = %s", lines[1])
	}
	if srv.Pending() != 0 {
		t.Fatalf("pending %d", srv.Pending())
	}
}

func TestServerValidatesRequests(t *testing.T) {
	fixturesOrSkip(t)
	srv := NewServer(t)
	srv.ValidateRequests(true)
	srv.Enqueue(Reply{Text: "never"}, Reply{Text: "fine"})
	resp := post(t, context.Background(), srv.URL, `{"model":"m","messages":[{"role":"robot","content":"x"}]}`)
	body := readBody(t, resp)
	if resp.StatusCode != 400 || !strings.Contains(body, "official schema") {
		t.Fatalf("status %d body %s", resp.StatusCode, body)
	}
	resp = post(t, context.Background(), srv.URL, `{"model":"m","messages":[{"role":"user","content":"x"}]}`)
	if body := readBody(t, resp); resp.StatusCode != 200 || !strings.Contains(body, "never") {
		t.Fatalf("status %d body %s", resp.StatusCode, body)
	}
}

func TestUnknownProtocol(t *testing.T) {
	srv := NewServer(t)
	srv.Enqueue(Reply{Protocol: providers.Protocol("bogus"), Text: "x"})
	resp := post(t, context.Background(), srv.URL, chatReq)
	if body := readBody(t, resp); resp.StatusCode != 500 || !strings.Contains(body, "cannot be rendered yet") {
		t.Fatalf("status %d body %s", resp.StatusCode, body)
	}
}

func TestSplitAndSteps(t *testing.T) {
	if got := split("héllo wörld", 3); strings.Join(got, "") != "héllo wörld" || len(got) != 3 {
		t.Fatalf("split = %q", got)
	}
	if got := split("ab", 5); len(got) != 2 {
		t.Fatalf("split short = %q", got)
	}
	if split("", 3) != nil {
		t.Fatal("split of empty string")
	}
	steps := (&Reply{ToolCalls: []ToolCall{{Name: "a", Arguments: "xy"}, {Name: "b", Arguments: "z"}}, Chunks: 2}).steps()
	var desc []string
	for _, s := range steps {
		switch {
		case s.ToolCall != nil:
			desc = append(desc, s.ToolCall.ID+s.ToolCall.Name+":"+s.ToolCall.Arguments)
		case s.Finish != "":
			desc = append(desc, "finish="+s.Finish)
		case s.Usage != nil:
			desc = append(desc, "usage")
		}
	}
	want := "call_0a: :x :y call_1b: :z finish=tool_calls usage"
	if strings.Join(desc, " ") != want {
		t.Fatalf("steps %q, want %q", strings.Join(desc, " "), want)
	}
}

func TestDurationJSON(t *testing.T) {
	var r Reply
	if err := json.Unmarshal([]byte(`{"delay":"1.5s","steps":[{"delay":250}]}`), &r); err != nil {
		t.Fatal(err)
	}
	if r.Delay != Duration(1500e6) || r.Steps[0].Delay != Duration(250e6) {
		t.Fatalf("delays %v %v", r.Delay, r.Steps[0].Delay)
	}
	if err := json.Unmarshal([]byte(`{"delay":"soon"}`), &r); err == nil {
		t.Fatal("bad duration accepted")
	}
	if b, _ := json.Marshal(Duration(2e9)); string(b) != `"2s"` {
		t.Fatalf("marshal %s", b)
	}
}
