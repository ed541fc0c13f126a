package store

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers"
)

func TestAppendAndHistory(t *testing.T) {
	s, _ := openTest(t)
	mustSession(t, s, "ses_1")
	mustSession(t, s, "ses_2")
	img := providers.Message{Role: providers.RoleUser, Parts: []providers.Part{
		{Type: providers.PartText, Text: "look"},
		{Type: providers.PartImage, Image: &providers.Image{MIMEType: "image/png", Data: []byte{0, 1, 2, 255}}},
	}}
	round1 := msgsOf(img, assistantCall("fetching", "call_1"), toolResult("call_1", `{"ok":true,"result":"ü\n\"q\""}`))
	last, err := s.AppendMessages(ctxb(), "ses_1", "run_1", 1, round1)
	if err != nil || last != 3 {
		t.Fatalf("AppendMessages = %d %v, want 3", last, err)
	}
	// Seqs are per session.
	if l2, err := s.AppendMessages(ctxb(), "ses_2", "", 0, msgsOf(userMsg("other"))); err != nil || l2 != 1 {
		t.Fatalf("other session seq %d %v", l2, err)
	}
	final := providers.Message{Role: providers.RoleAssistant, Parts: []providers.Part{{Type: providers.PartText, Text: "done"}}}
	if last, err = s.AppendMessages(ctxb(), "ses_1", "run_1", 2, msgsOf(final)); err != nil || last != 4 {
		t.Fatalf("second append = %d %v", last, err)
	}
	if last, err = s.AppendMessages(ctxb(), "ses_1", "run_1", 2, nil); err != nil || last != 4 {
		t.Fatalf("empty append = %d %v, want the current last seq", last, err)
	}

	h, err := s.History(ctxb(), "ses_1", 1)
	if err != nil {
		t.Fatal(err)
	}
	if seqs(h) != "1,2,3,4" {
		t.Fatalf("history seqs %s", seqs(h))
	}
	want := append(round1, final)
	for i, m := range h {
		if !reflect.DeepEqual(m.Message, want[i]) {
			t.Fatalf("message %d round-trip:\n got %+v\nwant %+v", i, m.Message, want[i])
		}
		if m.SessionID != "ses_1" || m.RunID != "run_1" || m.CreatedAt.IsZero() {
			t.Fatalf("message %d meta %+v", i, m)
		}
	}
	if h[0].Round != 1 || h[3].Round != 2 {
		t.Fatalf("rounds %d %d", h[0].Round, h[3].Round)
	}
	from3, _ := s.History(ctxb(), "ses_1", 3)
	if seqs(from3) != "3,4" {
		t.Fatalf("History from 3: %s", seqs(from3))
	}
	none, err := s.History(ctxb(), "ses_1", 5)
	if err != nil || none == nil || len(none) != 0 {
		t.Fatalf("History past the end: %v %v", none, err)
	}
	ss, _ := s.GetSession(ctxb(), "ses_1")
	if ss.Messages != 4 || ss.LastSeq != 4 {
		t.Fatalf("session counters %+v", ss)
	}

	_, err = s.History(ctxb(), "ses_none", 1)
	wantErr(t, err, ErrNotFound)
	_, err = s.AppendMessages(ctxb(), "ses_none", "", 0, msgsOf(userMsg("x")))
	wantErr(t, err, ErrNotFound)
	_, err = s.AppendMessages(ctxb(), "ses_1", "", 0, msgsOf(providers.Message{}))
	wantErr(t, err, ErrInvalid)
}

func TestReadMessagesPages(t *testing.T) {
	s, _ := openTest(t)
	mustSession(t, s, "ses_1")
	for i := range 10 {
		if _, err := s.AppendMessages(ctxb(), "ses_1", "", 0, msgsOf(userMsg("m"+itoa(i+1)))); err != nil {
			t.Fatal(err)
		}
	}
	page := func(before int64, limit int) string {
		t.Helper()
		m, err := s.ReadMessages(ctxb(), "ses_1", before, limit)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range m {
			if x.Message.Text() != "m"+itoa(int(x.Seq)) {
				t.Fatalf("seq %d holds %q", x.Seq, x.Message.Text())
			}
		}
		return seqs(m)
	}
	for _, tt := range []struct {
		before int64
		limit  int
		want   string
	}{
		{0, 3, "8,9,10"},
		{8, 3, "5,6,7"},
		{3, 3, "1,2"},
		{1, 3, ""},
		{0, 0, "1,2,3,4,5,6,7,8,9,10"},
		{100, 2, "9,10"},
	} {
		if got := page(tt.before, tt.limit); got != tt.want {
			t.Errorf("ReadMessages(before %d, limit %d) = %s, want %s", tt.before, tt.limit, got, tt.want)
		}
	}
	_, err := s.ReadMessages(ctxb(), "ses_1", 0, MaxMessagePage+1)
	wantErr(t, err, ErrInvalid)
	_, err = s.ReadMessages(ctxb(), "ses_none", 0, 10)
	wantErr(t, err, ErrNotFound)
	mustSession(t, s, "ses_empty")
	if m, err := s.ReadMessages(ctxb(), "ses_empty", 0, 10); err != nil || len(m) != 0 {
		t.Fatalf("empty session page %v %v", m, err)
	}
}

// TestAppendMessagesIsAtomic makes the third insert of a batch fail inside
// the transaction: none of the batch may stay.
func TestAppendMessagesIsAtomic(t *testing.T) {
	s, _ := openTest(t)
	mustSession(t, s, "ses_1")
	if _, err := s.AppendMessages(ctxb(), "ses_1", "", 0, msgsOf(userMsg("kept"))); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec(`CREATE TRIGGER boom BEFORE INSERT ON messages WHEN NEW.data LIKE '%BOOM%'
		BEGIN SELECT RAISE(ABORT, 'boom'); END`); err != nil {
		t.Fatal(err)
	}
	_, err := s.AppendMessages(ctxb(), "ses_1", "run_1", 1, msgsOf(userMsg("a"), userMsg("b"), userMsg("BOOM"), userMsg("d")))
	if err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("append with a failing insert: %v", err)
	}
	h, _ := s.History(ctxb(), "ses_1", 1)
	if seqs(h) != "1" {
		t.Fatalf("a failed batch left messages behind: %s", seqs(h))
	}
	ss, _ := s.GetSession(ctxb(), "ses_1")
	if ss.LastSeq != 1 || ss.Messages != 1 {
		t.Fatalf("counters moved by a failed batch: %+v", ss)
	}
	s.db.Exec(`DROP TRIGGER boom`)
	if last, err := s.AppendMessages(ctxb(), "ses_1", "", 0, msgsOf(userMsg("next"))); err != nil || last != 2 {
		t.Fatalf("seq after a failed batch %d %v, want 2 (no gap)", last, err)
	}
}

func TestUserMessageMarksSessionUsed(t *testing.T) {
	s, _ := openTest(t)
	a := mustSession(t, s, "ses_a")
	if _, err := s.AppendMessages(ctxb(), "ses_a", "", 0, msgsOf(toolResult("c", "{}"))); err != nil {
		t.Fatal(err)
	}
	got, _ := s.GetSession(ctxb(), "ses_a")
	if !got.LastUsedAt.Equal(a.LastUsedAt) {
		t.Fatal("a tool message marked the session used")
	}
	if _, err := s.AppendMessages(ctxb(), "ses_a", "", 0, msgsOf(userMsg("hi"))); err != nil {
		t.Fatal(err)
	}
	got, _ = s.GetSession(ctxb(), "ses_a")
	if !got.LastUsedAt.After(a.LastUsedAt) {
		t.Fatal("a user message did not mark the session used")
	}
}
