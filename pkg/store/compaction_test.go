package store

import (
	"testing"
	"time"
)

func TestCompactions(t *testing.T) {
	s, _ := openTest(t)
	mustSession(t, s, "ses_1")
	_, err := s.LatestCompaction(ctxb(), "ses_1")
	wantErr(t, err, ErrNotFound)
	must(t, s.AddCompaction(ctxb(), Compaction{SessionID: "ses_1", KeptFromSeq: 5, Summary: "first", TokensBefore: 900, TokensAfter: 300}))
	at := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	must(t, s.AddCompaction(ctxb(), Compaction{SessionID: "ses_1", KeptFromSeq: 9, Summary: "second", TokensBefore: 800, TokensAfter: 200, CreatedAt: at}))
	c, err := s.LatestCompaction(ctxb(), "ses_1")
	if err != nil {
		t.Fatal(err)
	}
	want := Compaction{SessionID: "ses_1", KeptFromSeq: 9, Summary: "second", TokensBefore: 800, TokensAfter: 200, CreatedAt: at}
	if *c != want {
		t.Fatalf("latest %+v, want %+v", c, want)
	}
	wantErr(t, s.AddCompaction(ctxb(), Compaction{SessionID: "ses_none", Summary: "x"}), ErrNotFound)
	wantErr(t, s.AddCompaction(ctxb(), Compaction{SessionID: "ses_1", Summary: "  "}), ErrInvalid)
	wantErr(t, s.AddCompaction(ctxb(), Compaction{SessionID: "ses_1", Summary: "x", KeptFromSeq: -1}), ErrInvalid)
}
