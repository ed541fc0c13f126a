package files

import (
	"context"

	"github.com/tavo-cli/tavo/pkg/files"
	"github.com/tavo-cli/tavo/pkg/tools"
)

const saveDescription = "Save content as a file in tavo's file store, replacing any file of the same name " +
	"(no confirmation is asked). name is one file name, without folders. Files are kept in the chat scope " +
	"(this conversation, the default) or the global scope (shared by all conversations; only when the " +
	"file must be reachable from other chats). Write text with encoding utf8 (default); binary data as " +
	"base64 or a data URL. At most 20 MiB a file. Use files rather than variables for large content. " +
	`Returns {path, name, size, mimeType, modifiedAt, overwritten}; path like "chat/report.md" names the file ` +
	"in messages and variables."

// saveTool is tavo_file_save.
type saveTool struct{ s *files.Store }

// Spec describes tavo_file_save.
func (*saveTool) Spec() tools.Spec { return spec(SaveName, saveDescription, SaveSchema) }

type saveArgs struct {
	Name    string  `json:"name"`
	Content string  `json:"content"`
	Options options `json:"options"`
}

// SaveResult is tavo_file_save's result: the new entry and whether it
// replaced a file.
type SaveResult struct {
	files.Entry
	Overwritten bool `json:"overwritten"`
}

// Run saves the file.
func (t *saveTool) Run(ctx context.Context, call *tools.Call) (any, error) {
	return run(call, func(a *saveArgs) (any, error) {
		loc, enc, err := a.Options.where(call.Env)
		if err != nil {
			return nil, err
		}
		// The name is checked before the content is decoded, so a bad name
		// is reported as such whatever the content.
		if err := files.CheckName(a.Name); err != nil {
			return nil, err
		}
		data, err := files.Decode(a.Content, enc)
		if err != nil {
			return nil, err
		}
		_, statErr := t.s.Stat(ctx, loc, a.Name)
		e, err := t.s.Save(ctx, loc, a.Name, data)
		if err != nil {
			return nil, err
		}
		return SaveResult{Entry: e, Overwritten: statErr == nil}, nil
	})
}
