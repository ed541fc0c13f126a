package files

import (
	"context"
	"errors"

	"github.com/tavo-cli/tavo/pkg/files"
	"github.com/tavo-cli/tavo/pkg/tools"
)

const deleteDescription = "Delete a saved file (no confirmation is asked). Deleting a file that does not " +
	`exist is resource_not_found. Returns {"deleted":true,"path":…}.`

const existsDescription = "Check whether a saved file exists, without reading it. Returns " +
	`{"exists":false} or {"exists":true,"file":{path,name,size,mimeType,modifiedAt}}.`

// deleteTool is tavo_file_delete.
type deleteTool struct{ s *files.Store }

// existsTool is tavo_file_exists.
type existsTool struct{ s *files.Store }

// Spec describes tavo_file_delete.
func (*deleteTool) Spec() tools.Spec { return spec(DeleteName, deleteDescription, NameSchema) }

// Spec describes tavo_file_exists.
func (*existsTool) Spec() tools.Spec { return spec(ExistsName, existsDescription, NameSchema) }

type nameArgs struct {
	Name    string  `json:"name"`
	Options options `json:"options"`
}

// DeleteResult is tavo_file_delete's result.
type DeleteResult struct {
	Deleted bool   `json:"deleted"`
	Path    string `json:"path"`
}

// ExistsResult is tavo_file_exists's result.
type ExistsResult struct {
	Exists bool         `json:"exists"`
	File   *files.Entry `json:"file,omitempty"`
}

// Run deletes the file.
func (t *deleteTool) Run(ctx context.Context, call *tools.Call) (any, error) {
	return run(call, func(a *nameArgs) (any, error) {
		loc, _, err := a.Options.where(call.Env)
		if err != nil {
			return nil, err
		}
		if err := t.s.Delete(ctx, loc, a.Name); err != nil {
			return nil, err
		}
		return DeleteResult{Deleted: true, Path: loc.Path(a.Name)}, nil
	})
}

// Run checks for the file.
func (t *existsTool) Run(ctx context.Context, call *tools.Call) (any, error) {
	return run(call, func(a *nameArgs) (any, error) {
		loc, _, err := a.Options.where(call.Env)
		if err != nil {
			return nil, err
		}
		e, err := t.s.Stat(ctx, loc, a.Name)
		switch {
		case errors.Is(err, files.ErrNotFound):
			return ExistsResult{Exists: false}, nil
		case err != nil:
			return nil, err
		}
		return ExistsResult{Exists: true, File: &e}, nil
	})
}
