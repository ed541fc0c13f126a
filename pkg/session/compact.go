package session

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/runner"
	"github.com/tavo-cli/tavo/pkg/store"
)

// summaryPrefix opens the synthetic message that carries a compaction summary.
const summaryPrefix = "Summary of the earlier conversation (older messages were compacted):\n\n"

// summaryAck answers the summary so every provider sees alternating turns.
const summaryAck = "Understood. I will continue from that summary."

const summarySystem = `You compact conversations. Write a faithful, dense summary of the conversation
you are given so it can replace it: the user's goals and constraints, decisions
made, facts and results learned (including what tools returned), open questions
and anything the assistant promised. Keep names, numbers, paths and URLs exact.
Write plain prose and short lists, no preamble.`

// History is a session's conversation as sent to the model: an optional
// summary pair, then stored messages with their seqs.
type History struct {
	Messages []providers.Message
	// Seqs holds each message's seq; 0 for the synthetic summary pair.
	Seqs []int64
	// Summary is the latest compaction summary, "" when none.
	Summary string
}

// LoadHistory reads what a continued session sends: the latest compaction's
// summary and the messages from its kept_from_seq on.
func LoadHistory(ctx context.Context, st *store.Store, sessionID string) (*History, error) {
	h := &History{}
	var from int64
	if c, err := st.LatestCompaction(ctx, sessionID); err == nil {
		h.Summary, from = c.Summary, c.KeptFromSeq
		h.Messages = append(h.Messages, summaryPair(c.Summary)...)
		h.Seqs = append(h.Seqs, 0, 0)
	} else if !isNotFound(err) {
		return nil, err
	}
	msgs, err := st.History(ctx, sessionID, from)
	if err != nil {
		return nil, err
	}
	for _, m := range msgs {
		h.Messages = append(h.Messages, m.Message)
		h.Seqs = append(h.Seqs, m.Seq)
	}
	dropSuperseded(h)
	return h, nil
}

func summaryPair(summary string) []providers.Message {
	return []providers.Message{
		{Role: providers.RoleUser, Parts: []providers.Part{{Type: providers.PartText, Text: summaryPrefix + summary}}},
		{Role: providers.RoleAssistant, Parts: []providers.Part{{Type: providers.PartText, Text: summaryAck}}},
	}
}

// Compactor summarises the oldest complete groups of a session's history
// with the model and records the compaction (runner.Compactor).
type Compactor struct {
	Store     *store.Store
	SessionID string
	Provider  providers.Provider
	Model     string
	History   *History
	// Target is the most tokens the kept history should take; 0 means half of
	// the history's estimate.
	Target int
	// KeepNewest keeps the newest exchange whatever its size (tavo session
	// compact). A run need not: its own prompt is the newest exchange.
	KeepNewest bool
}

// Compact implements runner.Compactor.
func (c *Compactor) Compact(ctx context.Context, history []providers.Message, reason string) (*runner.Compaction, error) {
	h := c.History
	if h == nil || len(history) != len(h.Messages) {
		return nil, &runner.CompactionError{Code: runner.CodeCompactionFailed, Message: "the history changed under the compactor"}
	}
	before := runner.EstimateTokens("", history, nil, 1)
	target := c.Target
	if target <= 0 {
		target = before / 2
	}
	keepFrom := c.keepFrom(history, target)
	if keepFrom <= 0 {
		return nil, &runner.CompactionError{Code: runner.CodeNothingToCompact, Message: "the history is a single exchange; there is nothing older to compact"}
	}
	summary, err := c.summarise(ctx, history[:keepFrom])
	if err != nil {
		return nil, &runner.CompactionError{Code: runner.CodeCompactionFailed, Message: fmt.Sprintf("the model could not summarise the history: %v", err), Err: err}
	}
	kept := append(summaryPair(summary), history[keepFrom:]...)
	after := runner.EstimateTokens("", kept, nil, 1)
	rec := store.Compaction{SessionID: c.SessionID, KeptFromSeq: c.seqAt(keepFrom), Summary: summary, TokensBefore: before, TokensAfter: after}
	if err := c.Store.AddCompaction(ctx, rec); err != nil {
		return nil, &runner.CompactionError{Code: runner.CodeCompactionFailed, Message: fmt.Sprintf("recording the compaction: %v", err), Err: err}
	}
	c.History = &History{Messages: kept, Seqs: append([]int64{0, 0}, h.Seqs[keepFrom:]...), Summary: summary}
	return &runner.Compaction{History: kept, KeptFromSeq: rec.KeptFromSeq, TokensBefore: before, TokensAfter: after}, nil
}

// keepFrom picks the first message to keep: the start of the oldest group
// (a stored user message and the turns that answered it) such that the
// groups from it on fit target, summarising at least the oldest stored
// group. len(history) keeps none of it. 0 or less: nothing to compact.
func (c *Compactor) keepFrom(history []providers.Message, target int) int {
	var starts []int
	for i, m := range history {
		if m.Role == providers.RoleUser && c.History.Seqs[i] != 0 {
			starts = append(starts, i)
		}
	}
	if len(starts) == 0 || (c.KeepNewest && len(starts) < 2) {
		return -1
	}
	keep := len(history)
	if c.KeepNewest {
		keep = starts[len(starts)-1]
	}
	for j := len(starts) - 1; j >= 1; j-- {
		if starts[j] >= keep {
			continue
		}
		if runner.EstimateTokens("", history[starts[j]:], nil, 1) > target {
			break
		}
		keep = starts[j]
	}
	return keep
}

// seqAt is the seq the kept history starts at: that of message i, or just
// after the last stored message when nothing is kept.
func (c *Compactor) seqAt(i int) int64 {
	if i < len(c.History.Seqs) {
		return c.History.Seqs[i]
	}
	return c.History.Seqs[len(c.History.Seqs)-1] + 1
}

// summarise asks the model for a summary of msgs (and of an earlier summary).
func (c *Compactor) summarise(ctx context.Context, msgs []providers.Message) (string, error) {
	var b strings.Builder
	b.WriteString("Summarise this conversation.\n\n")
	for _, m := range msgs {
		writeTranscript(&b, m)
	}
	req := &providers.Request{
		Model:    c.Model,
		System:   summarySystem,
		Messages: []providers.Message{{Role: providers.RoleUser, Parts: []providers.Part{{Type: providers.PartText, Text: b.String()}}}},
	}
	resp, err := c.Provider.Complete(ctx, req, nopSink{})
	if err != nil {
		return "", err
	}
	text := strings.TrimSpace(resp.Message.Text())
	if text == "" {
		return "", fmt.Errorf("the summary came back empty")
	}
	return text, nil
}

// writeTranscript renders one message as plain text for the summariser.
func writeTranscript(b *strings.Builder, m providers.Message) {
	for _, p := range m.Parts {
		switch p.Type {
		case providers.PartText:
			text := strings.TrimPrefix(p.Text, summaryPrefix)
			if text == summaryAck {
				continue
			}
			fmt.Fprintf(b, "%s: %s\n\n", m.Role, text)
		case providers.PartToolCall:
			fmt.Fprintf(b, "assistant called %s(%s)\n\n", p.ToolCall.Name, clip(p.ToolCall.Arguments, 2000))
		case providers.PartToolResult:
			fmt.Fprintf(b, "tool %s returned: %s\n\n", p.ToolResult.Name, clip(p.ToolResult.Content, 4000))
		case providers.PartImage:
			fmt.Fprintf(b, "%s: [an image]\n\n", m.Role)
		}
	}
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

type nopSink struct{}

func (nopSink) TextDelta(string)                                  {}
func (nopSink) ReasoningDelta(string)                             {}
func (nopSink) Retry(attempt int, wait time.Duration, why string) {}

// CompactOptions say how Compact summarises a session.
type CompactOptions struct {
	// Provider and Model write the summary.
	Provider providers.Provider
	Model    string
	// ContextBudget is the token budget of one request (config.ContextBudget
	// of the profile's context window); the kept history targets half of it.
	// 0, when no context window is known, is context_limits_missing.
	ContextBudget int
}

// Compact summarises a session's oldest complete exchanges with the model
// now, keeping the newest exchange and as many before it as fit, and records
// the compaction, so later runs on the session send the summary instead. It
// is `tavo session compact`, and any caller that compacts outside a run.
// Errors: a *runner.CompactionError (context_limits_missing, checked before
// the store is read; nothing_to_compact; compaction_failed), ErrNotFound
// (wrapped) for an unknown session, or the store's own.
func Compact(ctx context.Context, st *store.Store, sessionID string, opts CompactOptions) (*runner.Compaction, error) {
	if opts.ContextBudget <= 0 {
		return nil, &runner.CompactionError{Code: runner.CodeContextLimitsMissing,
			Message: "the profile sets no context_window; add one with `tavo profile set NAME --context-window N`"}
	}
	// No lease is taken: a run appending meanwhile only adds messages after
	// kept_from_seq, which stays valid.
	if _, err := st.GetSession(ctx, sessionID); err != nil {
		return nil, sessionErr(err)
	}
	h, err := LoadHistory(ctx, st, sessionID)
	if err != nil {
		return nil, err
	}
	c := &Compactor{Store: st, SessionID: sessionID, Provider: opts.Provider, Model: opts.Model, History: h,
		Target: opts.ContextBudget / 2, KeepNewest: true}
	return c.Compact(ctx, h.Messages, "requested")
}
