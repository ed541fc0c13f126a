package files

import (
	"context"

	"github.com/tavo-cli/tavo/pkg/files"
	"github.com/tavo-cli/tavo/pkg/tools"
)

const listDescription = "List saved files of one scope (chat by default, or global), sorted by name " +
	"(case-sensitive). Returns {files:[{path,name,size,mimeType,modifiedAt}], nextCursor?}: size in bytes, " +
	"modifiedAt in UTC. At most options.limit files a page (1-200, default 100); when nextCursor is present " +
	"more files remain: pass it as options.cursor, with the same scope, for the next page. Pages read the " +
	"files as they are now, not a snapshot. Check size and mimeType here before loading large or binary files."

// listTool is tavo_file_list.
type listTool struct{ s *files.Store }

// Spec describes tavo_file_list.
func (*listTool) Spec() tools.Spec { return spec(ListName, listDescription, ListSchema) }

type listArgs struct {
	Options options `json:"options"`
}

// Run lists one page.
func (t *listTool) Run(ctx context.Context, call *tools.Call) (any, error) {
	return run(call, func(a *listArgs) (any, error) {
		loc, _, err := a.Options.where(call.Env)
		if err != nil {
			return nil, err
		}
		o := files.ListOptions{Cursor: a.Options.Cursor}
		if a.Options.Limit != nil {
			if *a.Options.Limit == 0 {
				return nil, tools.InvalidArgument("options.limit", "an integer from 1 to 200", "integer")
			}
			o.Limit = *a.Options.Limit
		}
		return t.s.List(ctx, loc, o)
	})
}
