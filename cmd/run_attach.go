package cmd

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// maxAttachBytes bounds one --attach file: a prompt is not a bulk upload.
const maxAttachBytes = 20 << 20

// attachments reads --attach files: images become image parts, text becomes
// a fenced block naming the file; other binary files are refused.
func attachments(paths []string) ([]providers.Part, error) {
	var parts []providers.Part
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
			parts = append(parts, providers.Part{Type: providers.PartImage, Image: &providers.Image{MIMEType: mime, Data: b}})
		case utf8.Valid(b):
			fence := "```"
			for strings.Contains(string(b), fence) {
				fence += "`"
			}
			text := fmt.Sprintf("File %s:\n%s\n%s\n%s", filepath.Base(p), fence, strings.TrimRight(string(b), "\n"), fence)
			parts = append(parts, providers.Part{Type: providers.PartText, Text: text})
		default:
			return nil, fmt.Errorf("--attach %s: %s is neither text nor an image", p, mime)
		}
	}
	return parts, nil
}
