package cmd_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/tavo-cli/tavo/cmd"
	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/extensions/mcptest"
	"github.com/tavo-cli/tavo/pkg/providers/fake"
	searchfake "github.com/tavo-cli/tavo/pkg/search/fake"
)

// TestMain lets testscript run the tavo binary: the test binary re-executes
// itself as "tavo", with the same main as the built program, and as
// "mcpserver", an MCP test server over stdio (see mcptest.Main for its
// modes), for [mcp.NAME] command = ["mcpserver"] in test configs.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"tavo":      func() { os.Exit(cmd.Execute()) },
		"mcpserver": func() { os.Exit(mcptest.Main(os.Args[1:])) },
	})
}

type fakeKey struct{}

type searchKey struct{}

// searchFake is what cmdFakeSearch keeps of a search engine fake.
type searchFake interface {
	URL() string
	Close()
	Requests() []searchfake.Request
	Enqueue(...searchfake.Reply)
}

// scriptEnv gives a script its own home, config and data directories and
// the fakes' bookkeeping (fixtures: the provider fixtures' directory).
func scriptEnv(env *testscript.Env, fixtures string) {
	env.Setenv("HOME", filepath.Join(env.WorkDir, "home"))
	env.Setenv("XDG_CONFIG_HOME", filepath.Join(env.WorkDir, "config"))
	env.Setenv("XDG_DATA_HOME", filepath.Join(env.WorkDir, "data"))
	env.Setenv("TAVO_PROVIDER_FIXTURES", fixtures)
	env.Values[fakeKey{}] = new(*fake.Server)
	env.Values[searchKey{}] = map[string]searchFake{}
}

// TestScripts runs the end-to-end CLI tests in testdata/script.
func TestScripts(t *testing.T) {
	fixtures, _ := fake.FixturesDir()
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			scriptEnv(env, fixtures)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"fake":         cmdFake,
			"requests":     cmdRequests,
			"checkevents":  cmdCheckEvents,
			"waitrequests": cmdWaitRequests,
			"fakesearch":   cmdFakeSearch,
			"searchlog":    cmdSearchLog,
			"webserver":    cmdWebServer,
			"mcphttp":      cmdMCPHTTP,
			"loopsdue":     cmdLoopsDue,
		},
	})
}

// cmdFake starts a fake provider serving the replies of a script file and
// points OPENAI_BASE_URL at it. Requests that break the official schema are
// refused with 400, as the real API would.
//
//	fake SCRIPT.json
func cmdFake(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: fake SCRIPT.json")
	}
	replies, err := fake.LoadScript(ts.MkAbs(args[0]))
	ts.Check(err)
	srv := fake.NewServer(nil)
	srv.ValidateRequests(true)
	srv.Enqueue(replies...)
	ts.Defer(srv.Close)
	*ts.Value(fakeKey{}).(**fake.Server) = srv
	ts.Setenv("OPENAI_BASE_URL", srv.URL)
	ts.Setenv("ANTHROPIC_BASE_URL", srv.URL)
	ts.Setenv("GOOGLE_GEMINI_BASE_URL", srv.URL)
	ts.Setenv("FAKE_URL", srv.URL)
}

// cmdRequests prints the requests the fake received as NDJSON on stdout, or
// with an index, that request's body as indented JSON.
//
//	requests [N]
func cmdRequests(ts *testscript.TestScript, neg bool, args []string) {
	srv := *ts.Value(fakeKey{}).(**fake.Server)
	if srv == nil {
		ts.Fatalf("requests: no fake server started")
	}
	reqs := srv.Requests()
	if len(args) == 1 {
		var n int
		if _, err := fmt.Sscan(args[0], &n); err != nil || n < 0 || n >= len(reqs) {
			ts.Fatalf("requests: no request %s (got %d)", args[0], len(reqs))
		}
		var buf bytes.Buffer
		ts.Check(json.Indent(&buf, reqs[n].Body, "", "  "))
		buf.WriteByte('\n')
		ts.Stdout().Write(buf.Bytes())
		return
	}
	for _, r := range reqs {
		b, err := json.Marshal(r)
		ts.Check(err)
		ts.Stdout().Write(append(b, '\n'))
	}
}

// cmdCheckEvents checks an NDJSON event file: every line valid against the
// schema, seq from 1 without gaps, one run.completed and it is last, and its
// exit_code equal to the given one.
//
//	checkevents FILE EXITCODE
func cmdCheckEvents(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: checkevents FILE EXITCODE")
	}
	data, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	want, err := strconv.Atoi(args[1])
	if err != nil {
		ts.Fatalf("checkevents: exit code %q is not a number", args[1])
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	seq, completed := int64(0), 0
	var last events.Envelope
	for sc.Scan() {
		line := sc.Bytes()
		if err := events.Validate(line); err != nil {
			ts.Fatalf("event %d: %v\n%s", seq+1, err, line)
		}
		var e struct {
			Seq     int64  `json:"seq"`
			Type    string `json:"type"`
			Payload struct {
				ExitCode int `json:"exit_code"`
			} `json:"payload"`
		}
		ts.Check(json.Unmarshal(line, &e))
		seq++
		if e.Seq != seq {
			ts.Fatalf("seq %d where %d was due", e.Seq, seq)
		}
		if e.Type == string(events.RunCompleted) {
			completed++
			if e.Payload.ExitCode != want {
				ts.Fatalf("run.completed exit_code %d, want %d", e.Payload.ExitCode, want)
			}
		}
		last.Type = events.Type(e.Type)
	}
	if completed != 1 || last.Type != events.RunCompleted {
		ts.Fatalf("want exactly one run.completed, last; got %d, last %s", completed, last.Type)
	}
}

// cmdWaitRequests waits until the fake has received N requests (at most 10s),
// so a test can signal a process that is surely inside its run.
//
//	waitrequests N
func cmdWaitRequests(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waitrequests N")
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 1 {
		ts.Fatalf("waitrequests: %q is not a positive count", args[0])
	}
	srv := *ts.Value(fakeKey{}).(**fake.Server)
	if srv == nil {
		ts.Fatalf("waitrequests: no fake server started")
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(srv.Requests()) < n {
		if time.Now().After(deadline) {
			ts.Fatalf("waitrequests: %d requests after 10s, want %d", len(srv.Requests()), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// cmdFakeSearch starts a fake search API and sets <ENGINE>_URL (TAVILY_URL,
// BRAVE_URL, SEARXNG_URL, DUCKDUCKGO_URL, BING_URL) to it (429 is
// DuckDuckGo's anomaly page). The fake checks every request against the
// API's documented contract. Extra words queue faulty replies first: 429,
// 500 or malformed.
//
//	fakesearch tavily|brave|searxng|duckduckgo|bing [KEY] [429|500|malformed]...
func cmdFakeSearch(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: fakesearch ENGINE [KEY] [FAULT...]")
	}
	key := ""
	if len(args) > 1 {
		key = args[1]
	}
	var srv searchFake
	faults := map[string]searchfake.Reply{}
	switch args[0] {
	case "tavily":
		srv = searchfake.NewTavily(key)
		faults["429"], faults["500"] = searchfake.TavilyRateLimited(), searchfake.TavilyServerError()
	case "brave":
		srv = searchfake.NewBrave(key)
		faults["429"], faults["500"] = searchfake.BraveRateLimited(), searchfake.BraveServerError()
	case "searxng":
		srv = searchfake.NewSearXNG()
		faults["429"], faults["500"] = searchfake.SearXNGLimited(), searchfake.SearXNGServerError()
	case "duckduckgo":
		srv = searchfake.NewDuckDuckGo()
		faults["429"], faults["500"] = searchfake.DuckDuckGoAnomaly(), searchfake.Reply{Status: 500, Body: "<html>Server Error</html>"}
	case "bing":
		srv = searchfake.NewBing(key)
		faults["429"], faults["500"] = searchfake.BingRateLimited(), searchfake.BingServerError()
	default:
		ts.Fatalf("fakesearch: unknown engine %q", args[0])
	}
	faults["malformed"] = searchfake.Malformed()
	for _, f := range args[min(2, len(args)):] {
		r, ok := faults[f]
		if !ok {
			ts.Fatalf("fakesearch: unknown fault %q", f)
		}
		srv.Enqueue(r)
	}
	ts.Defer(srv.Close)
	ts.Value(searchKey{}).(map[string]searchFake)[args[0]] = srv
	ts.Setenv(strings.ToUpper(args[0])+"_URL", srv.URL())
}

// cmdSearchLog prints the requests a search fake received, one per line:
// method, path, query and body.
//
//	searchlog ENGINE
func cmdSearchLog(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: searchlog ENGINE")
	}
	srv := ts.Value(searchKey{}).(map[string]searchFake)[args[0]]
	if srv == nil {
		ts.Fatalf("searchlog: no %s fake started", args[0])
	}
	for _, r := range srv.Requests() {
		fmt.Fprintf(ts.Stdout(), "%s %s %s %s\n", r.Method, r.Path, r.Query.Encode(), r.Body)
	}
}

// cmdWebServer serves $WORK/www on 127.0.0.1 and sets <NAME>_URL to it, with
// a few routes for fetch tests: /redirect?to=URL (302), /headers (the
// request's headers as JSON), /bomb (an endless gzip body of zeros) and
// /slow (a body that never ends).
//
//	webserver NAME
func cmdWebServer(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: webserver NAME")
	}
	root := ts.MkAbs("www")
	mux := http.NewServeMux()
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	})
	mux.HandleFunc("/headers", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(r.Header)
	})
	mux.HandleFunc("/bomb", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		zeros := make([]byte, 1<<20)
		for i := 0; i < 1024 && r.Context().Err() == nil; i++ {
			if _, err := zw.Write(zeros); err != nil {
				return
			}
		}
		zw.Close()
	})
	mux.Handle("/", http.FileServer(http.Dir(root)))
	srv := httptest.NewServer(mux)
	ts.Defer(srv.Close)
	ts.Setenv(strings.ToUpper(args[0])+"_URL", srv.URL)
}

// cmdMCPHTTP starts the MCP test server over streamable HTTP and appends an
// [mcp.SERVER] table with its URL to the config file CONFIG. With HEADER
// and VALUE the server refuses requests without that header value, and the
// table sends HEADER = VALUE (written as given, so "$VAR" tests expansion).
//
//	mcphttp CONFIG SERVER [HEADER VALUE]
func cmdMCPHTTP(ts *testscript.TestScript, neg bool, args []string) {
	if neg || (len(args) != 2 && len(args) != 4) {
		ts.Fatalf("usage: mcphttp CONFIG SERVER [HEADER VALUE]")
	}
	header, value, want := "", "", ""
	if len(args) == 4 {
		header, value = args[2], args[3]
		want = os.Expand(value, ts.Getenv)
	}
	srv := mcptest.NewHTTPServer(header, want)
	ts.Defer(srv.Close)
	table := fmt.Sprintf("\n[mcp.%s]\nurl = %q\n", args[1], srv.URL)
	if header != "" {
		table += fmt.Sprintf("headers = { %q = %q }\n", header, value)
	}
	f, err := os.OpenFile(ts.MkAbs(args[0]), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	ts.Check(err)
	_, err = f.WriteString(table)
	ts.Check(err)
	ts.Check(f.Close())
}
