package store

import "testing"

func TestCompactionsOldestFirst(t *testing.T) {
	s, _ := openTest(t)
	mustSession(t, s, "ses_a")
	for i := 1; i <= 3; i++ {
		if err := s.AddCompaction(ctxb(), Compaction{SessionID: "ses_a", KeptFromSeq: int64(i), Summary: "s" + itoa(i), TokensBefore: 10 * i}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Compactions(ctxb(), "ses_a")
	if err != nil || len(got) != 3 || got[0].KeptFromSeq != 1 || got[2].Summary != "s3" {
		t.Fatalf("compactions %+v, %v", got, err)
	}
	if none, err := s.Compactions(ctxb(), "ses_none"); err != nil || len(none) != 0 {
		t.Fatalf("unknown session: %v, %v", none, err)
	}
}
