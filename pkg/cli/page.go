package cli

// WritePage writes one page of a listing that continues with a cursor. For
// json it is one object, {key: [items], "next_cursor": next}, which the jq
// filter sees whole; for ndjson it is one item per line like WriteList, and
// the cursor is the caller's to announce (on stderr), since a line of
// NDJSON is always a row.
func WritePage[T any](o *Output, key string, items []T, next string) error {
	if o.Format == FormatNDJSON {
		return WriteList(o, items)
	}
	if items == nil {
		items = []T{}
	}
	return o.WriteValue(map[string]any{key: items, "next_cursor": next})
}
