package cmd

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/store"
)

// maxAttachBytes bounds one --attach file: a prompt is not a bulk upload.
const maxAttachBytes = 20 << 20

// attachment is one --attach file: the part the prompt carries and what is
// stored as the session's asset.
type attachment struct {
	part      providers.Part
	name      string
	mediaType string
	data      []byte
}

// attachments reads --attach files: images become image parts, text becomes
// a fenced block naming the file; other binary files are refused.
func attachments(paths []string) ([]attachment, error) {
	var parts []attachment
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("--attach %s: %w", p, err)
		}
		if st.IsDir() {
			return nil, fmt.Errorf("--attach %s: is a directory; attach files one by one", p)
		}
		if st.Size() > maxAttachBytes {
			return nil, fmt.Errorf("--attach %s: %d bytes is over the %d MiB limit", p, st.Size(), maxAttachBytes>>20)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("--attach %s: %w", p, err)
		}
		mime := http.DetectContentType(b)
		switch {
		case strings.HasPrefix(mime, "image/"):
			parts = append(parts, attachment{name: filepath.Base(p), mediaType: mime, data: b,
				part: providers.Part{Type: providers.PartImage, Image: &providers.Image{MIMEType: mime, Data: b}}})
		case utf8.Valid(b):
			fence := "```"
			for strings.Contains(string(b), fence) {
				fence += "`"
			}
			text := fmt.Sprintf("File %s:\n%s\n%s\n%s", filepath.Base(p), fence, strings.TrimRight(string(b), "\n"), fence)
			parts = append(parts, attachment{name: filepath.Base(p), mediaType: mime, data: b,
				part: providers.Part{Type: providers.PartText, Text: text}})
		default:
			return nil, fmt.Errorf("--attach %s: %s is neither text nor an image", p, mime)
		}
	}
	return parts, nil
}

// storeAssets keeps each attachment as an asset of session sessionID
// (asset://ID, readable with tavo_read and `tavo read`) and returns the
// prompt's parts: each attachment led by its
// `[attachment: asset://ID; media_type; N bytes]` note. Assets live as long
// as their session. On failure the assets already stored are removed.
func storeAssets(ctx context.Context, st *store.Store, sessionID string, atts []attachment) ([]providers.Part, []string, error) {
	var parts []providers.Part
	var ids []string
	for _, a := range atts {
		art, err := st.CreateArtifact(ctx, store.Artifact{Kind: store.ArtifactKindAsset, SessionID: sessionID, Name: a.name, MediaType: a.mediaType}, a.data)
		if err != nil {
			removeAssets(ctx, st, ids)
			return nil, nil, fmt.Errorf("--attach %s: storing it as an asset: %w", a.name, err)
		}
		ids = append(ids, art.ID)
		note := fmt.Sprintf("[attachment: asset://%s; %s; %d bytes]", art.ID, art.MediaType, art.Size)
		parts = append(parts, providers.Part{Type: providers.PartText, Text: note}, a.part)
	}
	return parts, ids, nil
}

// removeAssets removes assets of a run that did not start.
func removeAssets(ctx context.Context, st *store.Store, ids []string) {
	for _, id := range ids {
		_ = st.DeleteArtifact(context.WithoutCancel(ctx), id)
	}
}
