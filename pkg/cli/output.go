package cli

import "errors"

// Output is a command's resolved output mode: the format and, when --jq was
// given, the filter to run over the JSON.
type Output struct {
	IO     *IOStreams
	Format Format
	// JQ is nil when no --jq was given.
	JQ *JQ
}

// NewOutput resolves -o and --jq for a command whose pipe default is
// pipeDefault. --jq works on JSON, so it implies -o json unless ndjson was
// asked for; --jq with -o text is an error.
func NewOutput(ios *IOStreams, formatFlag, jqExpr string, pipeDefault Format) (*Output, error) {
	o := &Output{IO: ios}
	if jqExpr != "" {
		jq, err := NewJQ(jqExpr)
		if err != nil {
			return nil, err
		}
		o.JQ = jq
		if formatFlag == "" {
			formatFlag = string(FormatJSON)
		}
	}
	f, err := ResolveFormat(formatFlag, ios, pipeDefault)
	if err != nil {
		return nil, err
	}
	if o.JQ != nil && f == FormatText {
		return nil, errors.New("--jq filters JSON output: drop -o text or use -o json")
	}
	o.Format = f
	return o, nil
}

// Structured reports whether the output is JSON or NDJSON rather than text.
func (o *Output) Structured() bool { return o.Format == FormatJSON || o.Format == FormatNDJSON }

// WriteValue writes v as the command's whole result: through the jq filter
// when there is one, else as JSON (indented on a terminal, one compact line
// for ndjson or in a pipe).
func (o *Output) WriteValue(v any) error {
	if o.JQ != nil {
		return o.JQ.Apply(o.IO.Out, v)
	}
	pretty := o.Format == FormatJSON && o.IO.IsStdoutTTY()
	return WriteJSON(o.IO.Out, v, pretty)
}

// WriteList writes items: one JSON array for json (the jq filter sees the
// array), one line per item for ndjson (the filter sees each item). An empty
// list is [] in JSON and nothing in NDJSON.
func WriteList[T any](o *Output, items []T) error {
	if o.Format != FormatNDJSON {
		if items == nil {
			items = []T{}
		}
		return o.WriteValue(items)
	}
	for _, it := range items {
		var err error
		if o.JQ != nil {
			err = o.JQ.Apply(o.IO.Out, it)
		} else {
			err = WriteJSON(o.IO.Out, it, false)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
