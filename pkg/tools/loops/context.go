package loops

import "context"

type loopKey struct{}

// WithLoop returns ctx for a run that a firing of loopID started, so
// tavo_loop_complete knows which loop it completes.
func WithLoop(ctx context.Context, loopID string) context.Context {
	return context.WithValue(ctx, loopKey{}, loopID)
}

// LoopFrom returns the loop that started the run of ctx, "" for none.
func LoopFrom(ctx context.Context) string {
	id, _ := ctx.Value(loopKey{}).(string)
	return id
}
