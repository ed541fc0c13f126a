package resources

import "testing"

func TestAttachmentsRetained(t *testing.T) {
	a := NewAttachments()
	a.Add(Attachment{URL: "u1"}, LifetimeOnce)
	a.Add(Attachment{URL: "u2"}, LifetimeRetain)
	a.Add(Attachment{URL: "u3"}, LifetimeRecent)
	a.Add(Attachment{URL: "u4", Kept: "art_1"}, LifetimeRetain)
	got := a.Retained()
	if len(got) != 2 || got[0].URL != "u2" || got[1].URL != "u4" || got[1].Kept != "art_1" {
		t.Fatalf("Retained = %+v; want u2, u4 (kept art_1)", got)
	}
	for range 5 {
		a.Sent()
	}
	if got := a.Retained(); len(got) != 2 {
		t.Fatalf("retained images were consumed: %+v", got)
	}
	// Reading it again once ends its retention.
	a.Add(Attachment{URL: "u2"}, LifetimeOnce)
	if got := a.Retained(); len(got) != 1 || got[0].URL != "u4" {
		t.Fatalf("after re-adding u2 once: %+v", got)
	}
	var none *Attachments
	if none.Retained() != nil {
		t.Fatal("nil set retains something")
	}
}
