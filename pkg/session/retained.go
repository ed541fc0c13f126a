package session

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/resources"
	"github.com/tavo-cli/tavo/pkg/runner"
	"github.com/tavo-cli/tavo/pkg/store"
)

// Images a run shows with lifetime retain stay for the whole session (SPEC
// §11): when the run ends the session keeps them (store.RetainedAttachments,
// the bytes in an artifact of the session), and the next run of the session
// that shows images sends them again from its first request. Once and
// recent images end with their run.

// loadRetained reads the images the session retains, with their bytes. An
// image whose artifact is gone (deleted by hand) is left out: the run goes
// on without it, and the session forgets it when the run ends.
func loadRetained(ctx context.Context, st *store.Store, sessionID string) ([]resources.Attachment, error) {
	list, err := st.RetainedAttachments(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	var out []resources.Attachment
	for _, r := range list {
		a, data, err := st.ArtifactData(ctx, r.Artifact)
		if errors.Is(err, store.ErrNotFound) || (err == nil && a.SessionID != sessionID) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("reading retained image %s: %w", r.URL, err)
		}
		out = append(out, resources.Attachment{URL: r.URL, MediaType: r.MediaType, Data: data, Kept: a.ID})
	}
	return out, nil
}

// configureRetained gives a run that shows images (o.Attachments) the
// session's retained images and follows what it retains: after each stored
// round, so an image counts as retained once the result that attached it
// is stored.
func (b *Binding) configureRetained(o *runner.Options) {
	if o.Attachments == nil {
		// A run without vision leaves what the session retains alone.
		return
	}
	b.att = o.Attachments
	for _, a := range b.retained {
		b.att.Add(a, resources.LifetimeRetain)
	}
	save := o.OnMessages
	o.OnMessages = func(round int, msgs []providers.Message) error {
		if err := save(round, msgs); err != nil {
			return err
		}
		b.retained = b.att.Retained()
		return nil
	}
}

// saveRetained stores the images the run leaves retained, keeping the
// bytes of each new one as an artifact of the session outside any run (so
// that pruning the run that read it does not lose it).
func (b *Binding) saveRetained(ctx context.Context) error {
	att := b.att
	b.att = nil // Finish may be called again: store once.
	if att == nil || (len(b.retained) == 0 && !b.hadRetained) {
		return nil
	}
	sessionID := b.SessionID()
	list := make([]store.RetainedAttachment, 0, len(b.retained))
	for _, a := range b.retained {
		kept := a.Kept
		if kept == "" {
			kept = b.sessionArtifact(ctx, a.URL)
		}
		if kept == "" {
			art, err := b.st.CreateArtifact(ctx, store.Artifact{Kind: store.ArtifactKindArtifact, SessionID: sessionID,
				Name: a.URL, MediaType: a.MediaType}, a.Data)
			if err != nil {
				return fmt.Errorf("keeping retained image %s: %w", a.URL, err)
			}
			kept = art.ID
		}
		list = append(list, store.RetainedAttachment{URL: a.URL, MediaType: a.MediaType, Artifact: kept})
	}
	if err := b.st.SetRetainedAttachments(ctx, sessionID, list); err != nil {
		return fmt.Errorf("storing the images session %s retains: %w", sessionID, err)
	}
	return nil
}

// sessionArtifact is the id behind an artifact:// or asset:// URL when it
// already belongs to the session and to no run (an --attach asset), "" when
// the image needs an artifact of its own.
func (b *Binding) sessionArtifact(ctx context.Context, url string) string {
	id, ok := strings.CutPrefix(url, resources.KindAsset+"://")
	if !ok {
		id, ok = strings.CutPrefix(url, resources.KindArtifact+"://")
	}
	if !ok || strings.ContainsAny(id, ":?") {
		return ""
	}
	a, err := b.st.GetArtifact(ctx, id)
	if err != nil || a.SessionID != b.SessionID() || a.RunID != "" {
		return ""
	}
	return a.ID
}
