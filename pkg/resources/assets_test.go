package resources

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/tavo-cli/tavo/pkg/store"
)

// bytelessStore describes artifacts but refuses to hand over their bytes,
// so a read that needs them fails.
type bytelessStore struct{ *MemoryArtifacts }

func (bytelessStore) ArtifactData(context.Context, string) (*store.Artifact, []byte, error) {
	return nil, nil, errors.New("bytes were read")
}

func TestAssetMetaReadsNoBytes(t *testing.T) {
	ctx := context.Background()
	mem := NewMemoryArtifacts()
	img, err := mem.CreateArtifact(ctx, store.Artifact{Kind: KindAsset, SessionID: "ses_1", Name: "cat.png", MediaType: "image/png"}, []byte("\x89PNG\r\n\x1a\nxxxx"))
	if err != nil {
		t.Fatal(err)
	}
	txt, err := mem.CreateArtifact(ctx, store.Artifact{Kind: KindAsset, SessionID: "ses_1", Name: "n.txt", MediaType: "text/plain; charset=utf-8"}, []byte("a\nb\nc"))
	if err != nil {
		t.Fatal(err)
	}
	c := New(bytelessStore{mem})
	sc := Scope{SessionID: "ses_1"}
	r, err := c.Read(ctx, Request{URL: "asset://" + img.ID + "?view=meta", Scope: sc})
	if err != nil {
		t.Fatal(err)
	}
	m := r.(*Meta)
	if m.MediaType != "image/png" || m.Size != 12 || m.Name != "cat.png" || m.Lines != nil || m.SHA256 != img.SHA256 {
		t.Fatalf("image meta %+v", m)
	}
	r, err = c.Read(ctx, Request{URL: "asset://" + txt.ID + "?view=meta", Scope: sc})
	if err != nil {
		t.Fatal(err)
	}
	if m := r.(*Meta); m.Lines == nil || *m.Lines != 3 {
		t.Fatalf("text meta %+v", m)
	}
	// Reading the content needs the bytes: the store is asked for them.
	if _, err := c.Read(ctx, Request{URL: "asset://" + txt.ID, Scope: sc}); err == nil {
		t.Fatal("content read without bytes")
	}
	// Another session's asset is not found, meta or not.
	if _, err := c.Read(ctx, Request{URL: "asset://" + img.ID + "?view=meta", Scope: Scope{SessionID: "ses_2"}}); codeOf(err) != CodeResourceNotFound {
		t.Fatalf("other session: %v", err)
	}
}

func TestAttachmentLifetimes(t *testing.T) {
	a := NewAttachments()
	a.Add(Attachment{URL: "asset://once"}, LifetimeOnce)
	a.Add(Attachment{URL: "asset://recent"}, LifetimeRecent)
	a.Add(Attachment{URL: "asset://retain"}, LifetimeRetain)
	var got []int
	for i := 0; i < 5; i++ {
		got = append(got, len(a.Pending()))
		a.Sent()
	}
	if want := []int{3, 2, 2, 1, 1}; !slices.Equal(got, want) {
		t.Fatalf("pending per request %v, want %v", got, want)
	}
	// The same URL again starts its lifetime over, without a duplicate.
	a.Add(Attachment{URL: "asset://retain"}, LifetimeOnce)
	if p := a.Pending(); len(p) != 1 {
		t.Fatalf("%+v", p)
	}
	a.Sent()
	if p := a.Pending(); len(p) != 0 {
		t.Fatalf("%+v", p)
	}
	for _, bad := range []string{"forever", "ONCE", " once"} {
		if _, err := ParseLifetime(bad); codeOf(err) != CodeInvalidAttachmentLifetime {
			t.Fatalf("%q: %v", bad, err)
		}
	}
	if l, err := ParseLifetime(""); err != nil || l != LifetimeOnce {
		t.Fatalf("default %q %v", l, err)
	}
}
