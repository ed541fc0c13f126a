package session

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/runner"
	"github.com/tavo-cli/tavo/pkg/store"
)

// summariser answers every request with a fixed summary and records them.
type summariser struct {
	reqs []*providers.Request
	err  error
}

func (s *summariser) Protocol() providers.Protocol { return providers.ProtocolOpenAI }

func (s *summariser) Complete(_ context.Context, req *providers.Request, _ providers.Sink) (*providers.Response, error) {
	s.reqs = append(s.reqs, req)
	if s.err != nil {
		return nil, s.err
	}
	return &providers.Response{Message: providers.Message{Role: providers.RoleAssistant, Parts: []providers.Part{{Type: providers.PartText, Text: "SUMMARY"}}}}, nil
}

func msg(role providers.Role, text string) providers.Message {
	return providers.Message{Role: role, Parts: []providers.Part{{Type: providers.PartText, Text: text}}}
}

// seed stores n exchanges of about size bytes each in a new session.
func seed(t *testing.T, n, size int) (*store.Store, string) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.CreateSession(ctx, "ses_t", "t"); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		lease, err := st.BeginRun(ctx, "run_"+string(rune('a'+i)), "ses_t", store.RunMeta{})
		if err != nil {
			t.Fatal(err)
		}
		body := strings.Repeat("x", size)
		if _, err := lease.AppendMessages(ctx, 1, []providers.Message{msg(providers.RoleUser, "q"+body), msg(providers.RoleAssistant, "a")}); err != nil {
			t.Fatal(err)
		}
		if err := lease.Finish(ctx, "completed", 0, nil); err != nil {
			t.Fatal(err)
		}
	}
	return st, "ses_t"
}

func TestCompactKeepsNewestThatFit(t *testing.T) {
	ctx := context.Background()
	st, id := seed(t, 4, 400)
	h, err := LoadHistory(ctx, st, id)
	if err != nil || len(h.Messages) != 8 {
		t.Fatalf("history %d messages, err %v", len(h.Messages), err)
	}
	p := &summariser{}
	c := &Compactor{Store: st, SessionID: id, Provider: p, Model: "m", History: h, Target: 300}
	res, err := c.Compact(ctx, h.Messages, "test")
	if err != nil {
		t.Fatal(err)
	}
	// Each exchange is ~127 tokens: two fit 300, so seqs 1-4 are summarised.
	if res.KeptFromSeq != 5 || len(res.History) != 2+4 || res.TokensAfter >= res.TokensBefore {
		t.Fatalf("kept from %d, %d messages, %d → %d tokens", res.KeptFromSeq, len(res.History), res.TokensBefore, res.TokensAfter)
	}
	if !strings.Contains(p.reqs[0].Messages[0].Text(), "user: q") || len(p.reqs[0].Tools) != 0 {
		t.Fatal("the summariser did not get the transcript, or got tools")
	}
	// The next load starts from the summary and the kept messages.
	h2, err := LoadHistory(ctx, st, id)
	if err != nil || h2.Summary != "SUMMARY" || len(h2.Messages) != 6 || h2.Seqs[2] != 5 {
		t.Fatalf("reloaded: summary %q, %d messages, err %v", h2.Summary, len(h2.Messages), err)
	}
}

func TestCompactWholeHistoryUnlessKeepNewest(t *testing.T) {
	ctx := context.Background()
	st, id := seed(t, 1, 2000)
	h, _ := LoadHistory(ctx, st, id)
	c := &Compactor{Store: st, SessionID: id, Provider: &summariser{}, Model: "m", History: h, Target: 10}
	res, err := c.Compact(ctx, h.Messages, "run")
	if err != nil || res.KeptFromSeq != 3 || len(res.History) != 2 {
		t.Fatalf("a run may summarise its whole history: %+v, %v", res, err)
	}
	h, _ = LoadHistory(ctx, st, id)
	c = &Compactor{Store: st, SessionID: id, Provider: &summariser{}, Model: "m", History: h, KeepNewest: true}
	_, err = c.Compact(ctx, h.Messages, "requested")
	var ce *runner.CompactionError
	if !errors.As(err, &ce) || ce.Code != runner.CodeNothingToCompact {
		t.Fatalf("only a summary left: %v", err)
	}
}

func TestCompactionFailedWhenTheModelFails(t *testing.T) {
	ctx := context.Background()
	st, id := seed(t, 3, 100)
	h, _ := LoadHistory(ctx, st, id)
	c := &Compactor{Store: st, SessionID: id, Provider: &summariser{err: errors.New("boom")}, Model: "m", History: h}
	_, err := c.Compact(ctx, h.Messages, "x")
	var ce *runner.CompactionError
	if !errors.As(err, &ce) || ce.Code != runner.CodeCompactionFailed {
		t.Fatalf("err %v", err)
	}
	if _, err := st.LatestCompaction(ctx, id); !errors.Is(err, store.ErrNotFound) {
		t.Fatal("a failed compaction left a record")
	}
}

func TestCompactSession(t *testing.T) {
	ctx := context.Background()
	st, id := seed(t, 4, 400)
	p := &summariser{}
	// A budget of 600 targets 300 tokens: the two newest exchanges fit.
	res, err := Compact(ctx, st, id, CompactOptions{Provider: p, Model: "m", ContextBudget: 600})
	if err != nil {
		t.Fatal(err)
	}
	if res.KeptFromSeq != 5 || len(p.reqs) != 1 || p.reqs[0].Model != "m" {
		t.Fatalf("kept from %d after %d requests", res.KeptFromSeq, len(p.reqs))
	}
	c, err := st.LatestCompaction(ctx, id)
	if err != nil || c.KeptFromSeq != 5 || c.Summary != "SUMMARY" {
		t.Fatalf("recorded %+v, %v", c, err)
	}
	// Compacting again starts from the summary; it keeps the newest exchange
	// even when the target is tiny.
	res, err = Compact(ctx, st, id, CompactOptions{Provider: p, Model: "m", ContextBudget: 2})
	if err != nil || res.KeptFromSeq != 7 {
		t.Fatalf("second compaction: %+v, %v", res, err)
	}
}

func TestCompactSessionErrors(t *testing.T) {
	ctx := context.Background()
	st, id := seed(t, 1, 10)
	p := &summariser{}
	var ce *runner.CompactionError
	_, err := Compact(ctx, st, "ses_missing", CompactOptions{Provider: p, Model: "m"})
	if !errors.As(err, &ce) || ce.Code != runner.CodeContextLimitsMissing {
		t.Fatalf("no budget: %v", err)
	}
	_, err = Compact(ctx, st, "ses_missing", CompactOptions{Provider: p, Model: "m", ContextBudget: 100})
	if !errors.Is(err, ErrNotFound) || !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown session: %v", err)
	}
	_, err = Compact(ctx, st, id, CompactOptions{Provider: p, Model: "m", ContextBudget: 100})
	if !errors.As(err, &ce) || ce.Code != runner.CodeNothingToCompact {
		t.Fatalf("one exchange: %v", err)
	}
	if len(p.reqs) != 0 {
		t.Fatalf("the model was asked %d times", len(p.reqs))
	}
}
