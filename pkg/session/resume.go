package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/runner"
	"github.com/tavo-cli/tavo/pkg/store"
)

// ErrCannotResume is wrapped by every refusal of a resume: the run is
// running, ended another way, was resumed already, or its session moved on.
// The CLI makes it exit 2, with the reason.
var ErrCannotResume = store.ErrCannotResume

// resumePoint is what a run keeps for a later resume (runs.resume_point).
type resumePoint struct {
	// Prompt is the run's user message, for a run killed before its first
	// round was stored; nil for a resumed run that continued the history.
	Prompt *providers.Message `json:"prompt,omitempty"`
	// PendingCall is the tavo_ask_user call a run that ended
	// input_required waits on.
	PendingCall string `json:"pending_call,omitempty"`
	// Program is the tavo_code call whose program asked PendingCall
	// (SPEC §12); such a run cannot be resumed.
	Program string `json:"program,omitempty"`
}

// SetResumePrompt replaces the prompt a resume of this run would start
// from, for a prompt the command completed after Bind (a --goal run's
// note, which names the goal made in the bound session). A run that kept
// no prompt (it continues a resumed run's history) is left as it is.
func (b *Binding) SetResumePrompt(ctx context.Context, pm providers.Message) error {
	if b.resumePoint.Prompt == nil {
		return nil
	}
	b.resumePoint.Prompt = &pm
	return b.saveResumePoint(ctx)
}

// CheckResumable says early, before anything starts, whether a run can
// be resumed, and returns it: only a run that ended input_required or
// interrupted, that no run resumed yet and after which its session saw no
// other run. Refusals wrap ErrCannotResume; an unknown run is
// store.ErrNotFound. Bind checks again under the session's lease.
func CheckResumable(ctx context.Context, st *store.Store, runID string) (*store.Run, error) {
	return checkResumable(ctx, st, runID, "")
}

// checkResumable is CheckResumable from inside run self, which is ignored.
func checkResumable(ctx context.Context, st *store.Store, runID, self string) (*store.Run, error) {
	r, err := st.GetRun(ctx, runID)
	if err != nil {
		return nil, err
	}
	switch r.Status {
	case events.StatusInputRequired, store.StatusInterrupted:
	case store.StatusRunning:
		return nil, store.CannotResume("run %s is still running: wait for it, or `tavo runs cancel` it", runID)
	default:
		return nil, store.CannotResume("run %s ended %s; only a run that ended input_required or interrupted can be resumed (continue its session with `tavo session send %s TEXT`)",
			runID, r.Status, r.SessionID)
	}
	info, err := st.ResumeInfo(ctx, runID)
	if err != nil {
		return nil, err
	}
	if r.Status == events.StatusInputRequired {
		// A question asked inside a code-mode program: the program cannot
		// be re-entered halfway, and running it again would repeat the
		// calls it made before the question.
		var point resumePoint
		if json.Unmarshal(info.ResumePoint, &point) == nil && point.Program != "" {
			return nil, store.CannotResume("run %s stopped on a question asked inside the tavo_code program %s (call %s): a program cannot be resumed halfway; continue its session with `tavo session send %s TEXT`",
				runID, point.Program, point.PendingCall, r.SessionID)
		}
	}
	switch {
	case info.ResumedBy != "" && info.ResumedBy != self:
		return nil, store.CannotResume("run %s was resumed already, by run %s", runID, info.ResumedBy)
	case info.Next != "" && info.Next != self:
		return nil, store.CannotResume("run %s cannot be resumed: its session has moved on (run %s came after it)", runID, info.Next)
	}
	return r, nil
}

// resumeFrom prepares, under the lease, the continuation of run from: the
// history the new run sends, its prompt when it must start over, and the
// pending calls of an unanswered question. It claims the resume, so no
// other run can resume from the same run.
func (b *Binding) resumeFrom(ctx context.Context, from string) error {
	r, err := checkResumable(ctx, b.st, from, b.RunID())
	if err != nil {
		return err
	}
	if r.SessionID != b.SessionID() {
		return store.CannotResume("run %s belongs to session %s", from, r.SessionID)
	}
	if err := b.st.ClaimResume(ctx, b.RunID(), from); err != nil {
		return err
	}
	info, err := b.st.ResumeInfo(ctx, from)
	if err != nil {
		return err
	}
	var point resumePoint
	if len(info.ResumePoint) > 0 {
		if err := json.Unmarshal(info.ResumePoint, &point); err != nil {
			return fmt.Errorf("run %s: its resume point is not readable: %w", from, err)
		}
	}
	h := b.history
	// Which of the history's messages did run from store?
	var mine []int
	if h != nil {
		seqOf, err := b.runSeqs(ctx, from)
		if err != nil {
			return err
		}
		for i, seq := range h.Seqs {
			if seq != 0 && seqOf[seq] {
				mine = append(mine, i)
			}
		}
	}
	b.resumedFrom = from
	if r.Status == events.StatusInputRequired {
		return b.resumeQuestion(from, point, mine)
	}
	// Interrupted: continue from its last complete round. A half round was
	// never stored, so it cannot be replayed.
	if len(mine) == 0 {
		if point.Prompt == nil {
			// A resumed run that died before storing anything continues
			// the history as it stands.
			b.resumePoint = resumePoint{}
			return nil
		}
		b.prompt, b.resumePoint = *point.Prompt, resumePoint{Prompt: point.Prompt}
		return nil
	}
	last := h.Messages[mine[len(mine)-1]]
	if last.Role == providers.RoleAssistant && len(last.ToolCalls()) == 0 {
		return store.CannotResume("run %s had already given its answer before it was interrupted; continue its session with `tavo session send %s TEXT`",
			from, b.SessionID())
	}
	return nil
}

// resumeQuestion sets up the answer of the question run from waits on:
// the history up to the assistant message that asked it, the results had
// before it, and the calls from the question on.
func (b *Binding) resumeQuestion(from string, point resumePoint, mine []int) error {
	h := b.history
	if point.PendingCall == "" || h == nil || len(mine) < 2 {
		return store.CannotResume("run %s did not record the question it waits on", from)
	}
	toolIdx, askIdx := mine[len(mine)-1], mine[len(mine)-2]
	results, asked := h.Messages[toolIdx], h.Messages[askIdx]
	calls := asked.ToolCalls()
	k := slices.IndexFunc(calls, func(c providers.ToolCall) bool { return c.ID == point.PendingCall })
	if results.Role != providers.RoleTool || asked.Role != providers.RoleAssistant || k < 0 {
		return store.CannotResume("run %s: its stored messages do not end with the question %s", from, point.PendingCall)
	}
	done := map[string]providers.Part{}
	for _, p := range results.Parts {
		if p.ToolResult != nil {
			done[p.ToolResult.CallID] = p
		}
	}
	pending := &runner.Pending{Calls: slices.Clone(calls[k:])}
	for _, c := range calls[:k] {
		if p, ok := done[c.ID]; ok {
			pending.Done = append(pending.Done, p)
		}
	}
	// The new tool message replaces the stored one: LoadHistory drops the
	// older answers of the same calls from now on.
	h.Messages, h.Seqs = h.Messages[:toolIdx], h.Seqs[:toolIdx]
	b.pending = pending
	return nil
}

// runSeqs returns the seqs of the messages run runID stored.
func (b *Binding) runSeqs(ctx context.Context, runID string) (map[int64]bool, error) {
	msgs, err := b.st.History(ctx, b.SessionID(), 0)
	if err != nil {
		return nil, err
	}
	out := map[int64]bool{}
	for _, m := range msgs {
		if m.RunID == runID {
			out[m.Seq] = true
		}
	}
	return out, nil
}

// dropSuperseded removes from h the tool results that a later tool message
// gives again for the same call (a resumed run answering the question its
// run stopped on), and messages left empty, so every call has one result.
func dropSuperseded(h *History) {
	last := map[string]int{} // call id → index of its latest result message
	for i, m := range h.Messages {
		if m.Role != providers.RoleTool {
			continue
		}
		for _, p := range m.Parts {
			if p.ToolResult != nil {
				last[p.ToolResult.CallID] = i
			}
		}
	}
	msgs, seqs := h.Messages[:0:0], h.Seqs[:0:0]
	for i, m := range h.Messages {
		if m.Role == providers.RoleTool {
			kept := m.Parts[:0:0]
			for _, p := range m.Parts {
				if p.ToolResult == nil || last[p.ToolResult.CallID] == i {
					kept = append(kept, p)
				}
			}
			if len(kept) == 0 {
				continue
			}
			m.Parts = kept
		}
		msgs, seqs = append(msgs, m), append(seqs, h.Seqs[i])
	}
	h.Messages, h.Seqs = msgs, seqs
}

// IsCannotResume reports whether err is a refusal to resume.
func IsCannotResume(err error) bool { return errors.Is(err, ErrCannotResume) }
