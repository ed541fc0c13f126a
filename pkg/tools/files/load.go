package files

import (
	"context"
	"unicode/utf8"

	"github.com/tavo-cli/tavo/pkg/files"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// maxLoadChars bounds the string a load hands to the executor. It is far
// above the per-result budget (tools.MaxResultBytes), so the executor still
// cuts the result and marks it truncated, without first encoding a whole
// 20 MiB file.
const maxLoadChars = 1 << 20

const loadDescription = "Read a file saved with tavo_file_save. The result is the content itself as a string: " +
	"text with encoding utf8 (default); binary files (images, PDFs, archives) fail as utf8 and must be read " +
	"with encoding base64 or dataUrl. A result over 64 KiB is cut and marked truncated, so check size and " +
	"mimeType with tavo_file_list or tavo_file_exists before loading large or binary files. " +
	"A missing file is resource_not_found."

// loadTool is tavo_file_load.
type loadTool struct{ s *files.Store }

// Spec describes tavo_file_load.
func (*loadTool) Spec() tools.Spec { return spec(LoadName, loadDescription, LoadSchema) }

type loadArgs struct {
	Name    string  `json:"name"`
	Options options `json:"options"`
}

// Run loads the file.
func (t *loadTool) Run(ctx context.Context, call *tools.Call) (any, error) {
	return run(call, func(a *loadArgs) (any, error) {
		loc, enc, err := a.Options.where(call.Env)
		if err != nil {
			return nil, err
		}
		data, e, err := t.s.Load(ctx, loc, a.Name)
		if err != nil {
			return nil, err
		}
		if enc == files.UTF8 && !files.IsText(data) {
			return nil, &tools.Error{Code: tools.CodeInvalidArguments,
				Message: e.Path + " is binary (" + e.MIMEType + ", not UTF-8 text); load it with options.encoding base64 or dataUrl",
				Details: map[string]any{"path": "options.encoding", "expected": "base64 or dataUrl for a binary file", "actualType": "string"}}
		}
		return encodePrefix(data, e.MIMEType, enc)
	})
}

// encodePrefix encodes data, or enough of its start to exceed any result
// budget: the whole file decides whether it is text, only the prefix is
// encoded.
func encodePrefix(data []byte, mimeType string, enc files.Encoding) (string, error) {
	if enc == files.UTF8 {
		if !files.IsText(data) {
			// Encode reports the binary file with its usual error.
			return files.Encode(data, mimeType, enc)
		}
		if len(data) > maxLoadChars {
			cut := maxLoadChars
			for cut > 0 && !utf8.RuneStart(data[cut]) {
				cut--
			}
			data = data[:cut]
		}
		return string(data), nil
	}
	if max := maxLoadChars / 4 * 3; len(data) > max {
		data = data[:max]
	}
	return files.Encode(data, mimeType, enc)
}
