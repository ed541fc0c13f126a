package code

import (
	"context"
	"fmt"
	"testing"

	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/fetch"
	"github.com/tavo-cli/tavo/pkg/files"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/fake"
	"github.com/tavo-cli/tavo/pkg/providers/openai"
	"github.com/tavo-cli/tavo/pkg/resources"
	"github.com/tavo-cli/tavo/pkg/runner"
	"github.com/tavo-cli/tavo/pkg/tools"
	"github.com/tavo-cli/tavo/pkg/tools/builtin"
)

// twentyFilesProgram is the model's program of the 20-file task.
const twentyFilesProgram = `{"code":"const saved = []; for (let i = 1; i <= 20; i++) { const r = await tools.tavo_file_save({name: 'note' + i + '.txt', content: 'note ' + i}); saved.push(r.name) } return {saved: saved.length, first: saved[0], last: saved[19]}"}`

// BenchmarkTwentyFiles is the 20-file task of docs/performance.md (SPEC
// §10): the model saves 20 files and answers. In code mode that is one
// program (2 model requests); without, one call per round (21 requests),
// every file tool sent from the first request. It reports the requests,
// their total bytes and the wall time of a run against a local fake
// provider that answers at once.
func BenchmarkTwentyFiles(b *testing.B) {
	for _, mode := range []string{"code_mode", "direct"} {
		b.Run(mode, func(b *testing.B) {
			var reqs, bytes int
			for b.Loop() {
				reqs, bytes = twentyFiles(b, mode == "code_mode")
			}
			b.ReportMetric(float64(reqs), "requests")
			b.ReportMetric(float64(bytes), "request-bytes")
		})
	}
}

// BenchmarkFirstRequestBytesCodeMode reports the first request of a run in
// code mode with the tools of a default install (compare
// runner.BenchmarkFirstRequestBytes, code mode off).
func BenchmarkFirstRequestBytesCodeMode(b *testing.B) {
	var size int
	for b.Loop() {
		cat := catalog(b, true)
		srv := fake.NewServer(b)
		srv.Enqueue(fake.Reply{Text: "ok"})
		runner.Run(context.Background(), runOptions(srv, cat, true, "What is on https://example.com today?"))
		size = len(srv.Requests()[0].Body)
		srv.Close()
	}
	b.ReportMetric(float64(size), "bytes")
}

func twentyFiles(b *testing.B, codeMode bool) (requests, bytes int) {
	cat := catalog(b, codeMode)
	srv := fake.NewServer(b)
	defer srv.Close()
	if codeMode {
		srv.Enqueue(fake.Reply{ToolCalls: []fake.ToolCall{{ID: "prog", Name: Name, Arguments: twentyFilesProgram}}})
	} else {
		for i := 1; i <= 20; i++ {
			args := fmt.Sprintf(`{"name":"note%d.txt","content":"note %d"}`, i, i)
			srv.Enqueue(fake.Reply{ToolCalls: []fake.ToolCall{{ID: fmt.Sprint("save", i), Name: "tavo_file_save", Arguments: args}}})
		}
	}
	srv.Enqueue(fake.Reply{Text: "Saved 20 notes."})
	res := runner.Run(context.Background(), runOptions(srv, cat, codeMode, "save twenty notes"))
	if res.Status != events.StatusCompleted || res.ToolCalls.Total != 21 && codeMode || res.ToolCalls.Failed != 0 {
		b.Fatalf("status %s, calls %+v, %v", res.Status, res.ToolCalls, res.Err)
	}
	for _, r := range srv.Requests() {
		bytes += len(r.Body)
	}
	return len(srv.Requests()), bytes
}

// catalog is a default install's tools (fetch, files, tavo_read), with
// tavo_code in code mode.
func catalog(b *testing.B, codeMode bool) *tools.Catalog {
	fe, fs := &fetch.Engine{}, files.Open(b.TempDir())
	centre, err := resources.NewStandard(resources.Engines{Fetch: fe, Files: fs})
	if err != nil {
		b.Fatal(err)
	}
	cat, err := builtin.Catalog(builtin.Deps{Fetch: fe, Files: fs, Resources: centre}, nil)
	if err != nil {
		b.Fatal(err)
	}
	if codeMode {
		if err := cat.Add(New(Options{Catalog: cat, Direct: config.DefaultCodeModeDirect})); err != nil {
			b.Fatal(err)
		}
	}
	return cat
}

func runOptions(srv *fake.Server, cat *tools.Catalog, codeMode bool, prompt string) runner.Options {
	o := runner.Options{
		Provider: openai.New(providers.Config{BaseURL: srv.URL, APIKey: "k"}), Model: "gpt-4.1",
		Prompt:  providers.Message{Role: providers.RoleUser, Parts: []providers.Part{{Type: providers.PartText, Text: prompt}}},
		Catalog: cat, ToolsEnabled: true, Stream: true, Emitter: events.NewEmitter("run_b", "ses_b", nil),
		RunID: "run_b", SessionID: "ses_b", MaxRounds: 25, MaxToolCalls: config.DefaultMaxToolCalls, ToolTimeout: config.DefaultToolTimeout,
	}
	if codeMode {
		o.CodeModeTools = append([]string{Name}, config.DefaultCodeModeDirect...)
	}
	return o
}
