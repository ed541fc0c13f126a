package agents

import (
	"context"

	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// askerFor is the asker of child c's runs: the root's ask channel (the
// terminal, a stdin line or the NDJSON driver), with each question labelled
// with the child's title and announced in the root's stream, where a driver
// reads it. Nil when the root has no asker (questions are cancelled).
func (t *tree) askerFor(c *Node) tools.Asker {
	if t.ask == nil {
		return nil
	}
	return &childAsker{t: t, c: c}
}

type childAsker struct {
	t *tree
	c *Node
}

// Ask relabels q and asks the root's channel. The call id gets the child's
// session id in front, so that a driver answering by call_id cannot
// confuse two runs' calls; the answer goes back to the child as asked.
// Under --ask fail it returns tools.ErrInputRequired, which ends the
// child's run input_required (its parent sees that status).
func (a *childAsker) Ask(ctx context.Context, q tools.Question) (tools.Answer, error) {
	orig := q
	label := "[" + a.c.title + "] "
	q.CallID = a.c.sessionID + "/" + q.CallID
	if q.Question != "" {
		q.Question = label + q.Question
	}
	if len(q.Questions) > 0 {
		q.Questions = append([]tools.QuestionItem(nil), q.Questions...)
		for i := range q.Questions {
			q.Questions[i].Question = label + q.Questions[i].Question
		}
	}
	if a.t.askEmit != nil {
		a.t.askEmit.Emit(events.AskQuestion, q)
	}
	ans, err := a.t.ask.Ask(ctx, q)
	if err != nil {
		return ans, err
	}
	if a.t.askEmit != nil {
		a.t.askEmit.Emit(events.AskAnswer, tools.AskAnswerEvent{
			CallID: q.CallID, Status: ans.Status, Answer: ans.Answer, Source: ans.Source, Answers: ans.Answers, Via: ans.Via,
		})
	}
	for i := range ans.Answers {
		if i < len(orig.Questions) {
			ans.Answers[i].Question = orig.Questions[i].Question
		}
	}
	return ans, nil
}

// confirmerFor is the confirmer of child c's runs: the root's (the
// terminal, the driver, --yes), with the request labelled with the child's
// title and announced in the root's stream, where a driver reads it. Nil
// when the root has none (confirmations are denied).
func (t *tree) confirmerFor(c *Node) tools.Confirmer {
	if t.confirm == nil {
		return nil
	}
	return &childConfirmer{t: t, c: c}
}

type childConfirmer struct {
	t *tree
	c *Node
}

// Confirm asks the root's confirmer about a child's call. As with a
// question, the call id gets the child's session id in front, so that a
// driver's confirm.result names this call and no other run's; the child's
// own journal keeps the original id.
func (cc *childConfirmer) Confirm(ctx context.Context, req tools.ConfirmRequest) (tools.Confirmation, error) {
	req.CallID = cc.c.sessionID + "/" + req.CallID
	req.Title = cc.c.title
	em := cc.t.askEmit
	if em != nil {
		em.Emit(events.ConfirmRequest, map[string]any{
			"call_id": req.CallID, "tool": req.Tool, "tool_id": req.ToolID, "arguments": req.Arguments, "title": req.Title,
		})
	}
	d, err := cc.t.confirm.Confirm(ctx, req)
	if err != nil {
		return d, err
	}
	if em != nil {
		verdict := "deny"
		if d.Allow {
			verdict = "allow"
		}
		em.Emit(events.ConfirmResult, map[string]any{"call_id": req.CallID, "tool": req.Tool, "decision": verdict, "via": d.Via})
	}
	return d, nil
}
