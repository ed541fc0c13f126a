package cli

import (
	"bufio"
	"fmt"
	"strings"
	"text/tabwriter"
)

// Table prints rows for list commands. On a terminal it aligns columns under
// a header; in a pipe it prints one tab-separated line per row and no header,
// so `cut -f2` and `while IFS=$'\t' read …` work.
type Table struct {
	ios     *IOStreams
	headers []string
	rows    [][]string
}

// NewTable starts a table with the given column headers (shown on a
// terminal only).
func NewTable(ios *IOStreams, headers ...string) *Table {
	return &Table{ios: ios, headers: headers}
}

// AddRow adds one row. Missing cells are empty; tabs and line breaks inside
// a cell become spaces so that each row stays one line.
func (t *Table) AddRow(cols ...string) {
	row := make([]string, max(len(cols), len(t.headers)))
	for i, c := range cols {
		row[i] = cellReplacer.Replace(c)
	}
	t.rows = append(t.rows, row)
}

// Len returns the number of rows added.
func (t *Table) Len() int { return len(t.rows) }

var cellReplacer = strings.NewReplacer("\t", " ", "\r\n", " ", "\n", " ", "\r", " ")

// Render writes the table to stdout.
func (t *Table) Render() error {
	if !t.ios.IsStdoutTTY() {
		w := bufio.NewWriter(t.ios.Out)
		for _, r := range t.rows {
			w.WriteString(strings.Join(r, "\t"))
			w.WriteByte('\n')
		}
		return w.Flush()
	}
	var buf strings.Builder
	tw := tabwriter.NewWriter(&buf, 0, 8, 2, ' ', 0)
	if len(t.headers) > 0 {
		fmt.Fprintln(tw, strings.Join(t.headers, "\t"))
	}
	for _, r := range t.rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// Every row keeps all its cells so that columns stay aligned across
	// rows; the padding that leaves after the last one is trimmed here.
	w := bufio.NewWriter(t.ios.Out)
	for line := range strings.Lines(buf.String()) {
		w.WriteString(strings.TrimRight(line, " \n"))
		w.WriteByte('\n')
	}
	return w.Flush()
}
