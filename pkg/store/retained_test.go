package store

import (
	"errors"
	"reflect"
	"testing"
)

func TestRetainedAttachments(t *testing.T) {
	s, _ := openTest(t)
	ctx := ctxb()
	if _, err := s.CreateSession(ctx, "ses_1", "First"); err != nil {
		t.Fatal(err)
	}
	want := []RetainedAttachment{
		{URL: "workspace://b.png", MediaType: "image/png", Artifact: "art_2"},
		{URL: "asset://ast_1", MediaType: "image/jpeg", Artifact: "ast_1"},
	}
	if err := s.SetRetainedAttachments(ctx, "ses_1", want); err != nil {
		t.Fatal(err)
	}
	got, err := s.RetainedAttachments(ctx, "ses_1")
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, %v; want %v (in order)", got, err, want)
	}
	// Replacing keeps only the new list.
	if err := s.SetRetainedAttachments(ctx, "ses_1", want[1:]); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.RetainedAttachments(ctx, "ses_1"); !reflect.DeepEqual(got, want[1:]) {
		t.Fatalf("after replace: %v", got)
	}
	if err := s.SetRetainedAttachments(ctx, "ses_none", want); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown session: %v", err)
	}
	// Removed with the session.
	if err := s.DeleteSession(ctx, "ses_1"); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM retained_attachments`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("rows left after deleting the session: %d, %v", n, err)
	}
}
