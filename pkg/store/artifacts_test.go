package store

import (
	"testing"
)

func TestArtifactsStoreAndGoWithTheirRuns(t *testing.T) {
	s, _ := openTest(t)
	mustSession(t, s, "ses_1")
	l := mustBegin(t, s, "run_1", "ses_1")
	must(t, l.Finish(ctxb(), "completed", 0, nil))
	data := []byte("one\ntwo\nthree")
	a, err := s.CreateArtifact(ctxb(), Artifact{SessionID: "ses_1", RunID: "run_1", Name: "out.txt", MediaType: "text/plain"}, data)
	if err != nil {
		t.Fatal(err)
	}
	if a.Kind != ArtifactKindArtifact || a.Size != 13 || a.Lines != 3 || len(a.SHA256) != 64 || a.ID[:4] != "art_" {
		t.Fatalf("%+v", a)
	}
	got, b, err := s.ArtifactData(ctxb(), a.ID)
	if err != nil || string(b) != string(data) || got.Name != "out.txt" {
		t.Fatalf("%+v %q %v", got, b, err)
	}
	asset, err := s.CreateArtifact(ctxb(), Artifact{Kind: ArtifactKindAsset, SessionID: "ses_1", MediaType: "image/png"}, []byte{1, 2})
	must(t, err)
	if list, _ := s.ListArtifacts(ctxb(), ArtifactFilter{SessionID: "ses_1"}); len(list) != 2 {
		t.Fatalf("list: %+v", list)
	}
	if list, _ := s.ListArtifacts(ctxb(), ArtifactFilter{SessionID: "ses_2"}); len(list) != 0 {
		t.Fatalf("other session: %+v", list)
	}
	// runs prune removes a run's artifacts with it.
	p, err := s.PlanPrune(ctxb(), 0, 0)
	must(t, err)
	must(t, s.ApplyPrune(ctxb(), p))
	_, err = s.GetArtifact(ctxb(), a.ID)
	wantErr(t, err, ErrNotFound)
	if _, err := s.GetArtifact(ctxb(), asset.ID); err != nil {
		t.Fatalf("the asset belongs to the session, not the run: %v", err)
	}
	// Deleting the session removes the rest.
	must(t, s.DeleteSession(ctxb(), "ses_1"))
	_, err = s.GetArtifact(ctxb(), asset.ID)
	wantErr(t, err, ErrNotFound)
	wantErr(t, s.DeleteArtifact(ctxb(), asset.ID), ErrNotFound)
}
