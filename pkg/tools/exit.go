package tools

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/tavo-cli/tavo/pkg/resources"
)

// Paged is implemented by results that already keep to the text budget and
// page from their own source (tavo_read's pages): the one exit never
// archives them again (SPEC §11).
type Paged interface{ PagedFromSource() }

// exit is the one exit every tool result goes through (SPEC §11): a result
// whose model-visible form passes the text budget is archived whole as an
// artifact and the model gets {"truncated":true,"artifact","preview",
// "continue"} instead. Nothing is cut and lost.
type exit struct {
	once   sync.Once
	centre *resources.Centre
}

// resources is the centre artifacts go to: the catalog's when it has one,
// else one in memory for this executor.
func (x *Executor) resources() *resources.Centre {
	if c := x.Catalog.Resources(); c != nil {
		return c
	}
	x.exit.once.Do(func() { x.exit.centre = resources.New(nil) })
	return x.exit.centre
}

// archive keeps sr whole and returns the truncated form the model sees.
func (x *Executor) archive(ctx context.Context, env *Env, s Spec, sr shapedResult) (shapedResult, string, error) {
	mediaType := "application/json"
	if sr.text {
		mediaType = "text/plain; charset=utf-8"
	}
	var scope resources.Scope
	if env != nil {
		scope = resources.Scope{SessionID: env.SessionID, RunID: env.RunID}
	}
	tr, err := x.resources().Archive(ctx, scope, s.Name, mediaType, []byte(sr.visible()))
	if err != nil {
		return shapedResult{}, "", err
	}
	b, err := encodeJSON(tr)
	if err != nil {
		return shapedResult{}, "", err
	}
	return shapedResult{json: b, value: json.RawMessage(b)}, tr.Artifact, nil
}

// overBudget reports whether v must go through the archive: it is not a
// page of a source and its visible form passes the text budget.
func overBudget(v any, sr shapedResult) bool {
	if _, ok := v.(Paged); ok {
		return false
	}
	return !resources.DefaultBudget().Fits(sr.visible())
}
