package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/providers"
)

// Compaction error codes (SPEC §8).
const (
	CodeContextLimitsMissing = "context_limits_missing"
	CodeContextFull          = "context_full"
	CodeNothingToCompact     = "nothing_to_compact"
	CodeCompactionFailed     = "compaction_failed"
)

// CompactionError is a compaction that could not be done.
type CompactionError struct {
	Code    string
	Message string
	Err     error
}

func (e *CompactionError) Error() string { return e.Code + ": " + e.Message }
func (e *CompactionError) Unwrap() error { return e.Err }

// Compaction is a shorter history that replaces the stored one in what is
// sent: a summary of the oldest complete groups and the groups kept.
type Compaction struct {
	History      []providers.Message
	KeptFromSeq  int64
	TokensBefore int
	TokensAfter  int
}

// Compactor shrinks the earlier conversation of a run (the history it was
// given, never the messages of the run itself).
type Compactor interface {
	Compact(ctx context.Context, history []providers.Message, reason string) (*Compaction, error)
}

// EstimateTokens is a rough token count of a request: about four bytes of
// JSON a token, scaled by ratio (the provider's reported input tokens over
// this estimate, once a response told it; 1 before).
func EstimateTokens(system string, msgs []providers.Message, tools []providers.ToolSpec, ratio float64) int {
	n := len(system)
	for _, m := range msgs {
		b, _ := json.Marshal(m)
		n += len(b)
	}
	for _, t := range tools {
		n += len(t.Name) + len(t.Description) + len(t.Parameters)
	}
	if ratio <= 0 {
		ratio = 1
	}
	return int(float64(n) / 4 * ratio)
}

// compact replaces the history part of the conversation once per run.
func (r *run) compact(ctx context.Context, reason string) error {
	if r.opts.Compactor == nil || r.compacted {
		return &CompactionError{Code: CodeContextFull, Message: "the conversation does not fit the model's context and cannot be compacted further"}
	}
	r.compacted = true
	c, err := r.opts.Compactor.Compact(ctx, r.msgs[:r.added], reason)
	if err != nil {
		return err
	}
	rest := append([]providers.Message(nil), r.msgs[r.added:]...)
	r.msgs = append(append([]providers.Message(nil), c.History...), rest...)
	// Indexes into this run's messages move with the history's new length.
	r.stored += len(c.History) - r.added
	r.added = len(c.History)
	r.emit(events.Compaction, events.CompactionP{KeptFromSeq: c.KeptFromSeq, TokensBefore: c.TokensBefore, TokensAfter: c.TokensAfter})
	return nil
}

// fitOrCompact compacts before a request whose estimate is over the budget.
// A compaction that is impossible here is not fatal: the provider decides.
func (r *run) fitOrCompact(ctx context.Context) error {
	if r.opts.ContextBudget <= 0 || r.compacted || r.opts.Compactor == nil {
		return nil
	}
	tools := r.visibleSpecs()
	if EstimateTokens(r.opts.System, r.msgs, tools, r.ratio) <= r.opts.ContextBudget {
		return nil
	}
	err := r.compact(ctx, "the conversation would not fit the model's context")
	var ce *CompactionError
	if errors.As(err, &ce) && (ce.Code == CodeNothingToCompact || ce.Code == CodeContextFull) {
		return nil
	}
	return err
}

// calibrate learns how the estimate relates to the provider's count.
func (r *run) calibrate(req *providers.Request, u providers.Usage) {
	if u.InputTokens <= 0 {
		return
	}
	if est := EstimateTokens(req.System, req.Messages, req.Tools, 1); est > 0 {
		r.ratio = float64(u.InputTokens) / float64(est)
	}
}

func compactionFailure(err error) (code, msg string) {
	var ce *CompactionError
	if errors.As(err, &ce) {
		return ce.Code, ce.Error()
	}
	return CodeCompactionFailed, fmt.Sprintf("compaction failed: %v", err)
}
