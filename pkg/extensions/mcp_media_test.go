package extensions

import (
	"context"
	"regexp"
	"testing"

	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/resources"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// An MCP image result is kept as an artifact of the run and named by its
// attachment note (SPEC §11); a run that shows images queues it for the
// next request.
func TestMCPImageBecomesArtifact(t *testing.T) {
	transports(t, func(t *testing.T, srv *config.MCPServer) {
		_, cat := loaded(t, srv)
		centre := resources.New(nil)
		cat.SetResources(centre)
		att := resources.NewAttachments()
		ctx := resources.WithAttachments(context.Background(), att)
		x := &tools.Executor{Catalog: cat, Budget: tools.NewBudget(tools.MaxResultBytes, tools.MaxRunResultBytes)}
		env := &tools.Env{RunID: "run_test", SessionID: "ses_test", Catalog: cat}
		out := x.Execute(ctx, env, providers.ToolCall{ID: "call_1", Name: "demo__picture", Arguments: `{}`})
		got := resultText(t, out)
		m := regexp.MustCompile(`^a red dot\n\[attachment: (artifact://art_[0-9A-Z]+); image/png; 9 bytes\]$`).FindStringSubmatch(got)
		if m == nil {
			t.Fatalf("picture = %q", got)
		}
		r, err := centre.Read(ctx, resources.Request{URL: m[1], Scope: resources.Scope{SessionID: "ses_test"}})
		if err != nil {
			t.Fatal(err)
		}
		if md, ok := r.(*resources.Media); !ok || md.MediaType != "image/png" || md.Bytes != 9 {
			t.Fatalf("read back %+v", r)
		}
		if p := att.Pending(); len(p) != 1 || p[0].URL != m[1] || len(p[0].Data) != 9 {
			t.Fatalf("attachments %+v", p)
		}
	})
}
