package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/itchyny/gojq"
)

// JQ is a compiled --jq filter.
type JQ struct {
	expr string
	code *gojq.Code
}

// NewJQ compiles expr once. A bad expression gives a one-line error naming
// the expression and what is wrong with it.
func NewJQ(expr string) (*JQ, error) {
	q, err := gojq.Parse(expr)
	if err != nil {
		var pe *gojq.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("invalid jq expression %q: %v at offset %d", expr, err, pe.Offset)
		}
		return nil, fmt.Errorf("invalid jq expression %q: %w", expr, err)
	}
	// An empty environment: $ENV and env would otherwise let a filter print
	// API keys, and tavo promises its output never carries one.
	code, err := gojq.Compile(q, gojq.WithEnvironLoader(func() []string { return nil }))
	if err != nil {
		return nil, fmt.Errorf("invalid jq expression %q: %w", expr, err)
	}
	return &JQ{expr: expr, code: code}, nil
}

// JQError is a --jq filter that failed while it ran (`error("…")`, `.a`
// on a string): the expression was valid, the data did not suit it.
// Commands exit 1 for it; an expression that does not compile is a usage
// error (exit 2) reported by NewJQ.
type JQError struct {
	Expr string
	Err  error
}

func (e *JQError) Error() string { return fmt.Sprintf("--jq %q: %v", e.Expr, e.Err) }

func (e *JQError) Unwrap() error { return e.Err }

// String returns the expression the filter was compiled from.
func (j *JQ) String() string { return j.expr }

// Apply runs the filter over v and writes each result on its own line:
// strings raw (as gh --jq does, so `--jq .name` prints a bare name), other
// values as compact JSON. v may be any value encoding/json can marshal.
// A failure of the filter itself is a *JQError; the results before it are
// written. A failure to write is returned as it is.
func (j *JQ) Apply(w io.Writer, v any) error {
	input, err := toJQValue(v)
	if err != nil {
		return &JQError{Expr: j.expr, Err: err}
	}
	bw := bufio.NewWriter(w)
	iter := j.code.Run(input)
	for {
		out, ok := iter.Next()
		if !ok {
			break
		}
		if err, isErr := out.(error); isErr {
			var he *gojq.HaltError
			if errors.As(err, &he) && he.Value() == nil {
				break // plain `halt`: stop without complaint
			}
			if ferr := bw.Flush(); ferr != nil {
				return ferr
			}
			return &JQError{Expr: j.expr, Err: err}
		}
		if s, isStr := out.(string); isStr {
			bw.WriteString(s)
		} else {
			b, err := gojq.Marshal(out)
			if err != nil {
				return &JQError{Expr: j.expr, Err: err}
			}
			bw.Write(b)
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// toJQValue turns any Go value into the plain JSON values gojq accepts
// (maps, slices, strings, bools, nil, json.Number), by a JSON round trip
// that keeps large integers exact.
func toJQValue(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return out, nil
}
