package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/pelletier/go-toml/v2"
)

// fileHeader starts every file Save writes, because hand-written comments
// do not survive a rewrite and people should learn that before they lose one.
const fileHeader = `# tavo configuration (reference: docs/config.md).
# Hand edits are welcome, but "tavo profile set|rm|use" rewrite this file
# and do not keep comments.

`

// Load reads the config file at path. A missing file is an empty Config
// bound to path (Save creates it). A file that does not parse, has unknown
// keys or invalid values gives an *Error naming the file, the line when
// known, and what is wrong.
func Load(path string) (*Config, error) {
	c := &Config{path: path}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return nil, &Error{Msg: fmt.Sprintf("cannot read config: %v", err), Err: err}
	}
	if err := decode(data, c); err != nil {
		return nil, &Error{Msg: fmt.Sprintf("config %s%s", path, describeDecodeError(err)), Err: err}
	}
	if err := c.Validate(); err != nil {
		return nil, &Error{Msg: fmt.Sprintf("config %s: %s", path, err.Error()), Err: err}
	}
	return c, nil
}

func decode(data []byte, c *Config) error {
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(c)
}

// describeDecodeError renders a go-toml error as ":LINE: what is wrong",
// one line, naming unknown keys with a suggestion when one is close.
func describeDecodeError(err error) string {
	var sm *toml.StrictMissingError
	if errors.As(err, &sm) && len(sm.Errors) > 0 {
		first := sm.Errors[0]
		row, _ := first.Position()
		key := first.Key()
		msg := fmt.Sprintf(":%d: unknown key %q", row, strings.Join(key, "."))
		if s := suggestKey(key); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		if n := len(sm.Errors) - 1; n > 0 {
			msg += fmt.Sprintf(" and %d more unknown key%s", n, plural(n))
		}
		return msg
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		msg := plainTypeError(strings.TrimPrefix(de.Error(), "toml: "))
		if k := de.Key(); len(k) > 0 {
			msg = fmt.Sprintf("%s: %s", strings.Join(k, "."), msg)
		}
		return fmt.Sprintf(":%d:%d: %s", row, col, msg)
	}
	return ": " + strings.TrimPrefix(err.Error(), "toml: ")
}

// typeErrorRE is compiled when a config file has a type error, not at start-up.
var typeErrorRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^cannot decode TOML (\w+) into struct field \S+ of type (\S+)$`)
})

// plainTypeError rewrites go-toml's type mismatch, which names Go struct
// fields, in the file's terms.
func plainTypeError(msg string) string {
	m := typeErrorRE().FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	want := map[string]string{
		"int": "an integer", "float64": "a number", "string": "a string",
		"bool": "true or false", "*bool": "true or false", "[]string": "an array of strings",
		"map[string]string": "a table of strings", "map[string]interface {}": "a table",
	}[m[2]]
	if want == "" {
		return msg
	}
	got := "a " + m[1]
	if strings.ContainsRune("aeiou", rune(m[1][0])) {
		got = "an " + m[1]
	}
	return fmt.Sprintf("must be %s, not %s", want, got)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Path returns the file this Config was loaded from and is saved to.
func (c *Config) Path() string { return c.path }

// Save validates c and writes it to its path atomically: a temporary file
// in the same directory, then a rename, so a crash or a concurrent reader
// never sees half a file. The file is 0600 (it may hold keys) and a missing
// directory is created 0700. A symlinked config file (dotfile managers) is
// written through: the link stays and its target changes.
func (c *Config) Save() error {
	if c.path == "" {
		return errors.New("config has no file path to save to")
	}
	if err := c.Validate(); err != nil {
		return err
	}
	var buf bytes.Buffer
	buf.WriteString(fileHeader)
	enc := toml.NewEncoder(&buf)
	if err := enc.Encode(c); err != nil {
		return fmt.Errorf("encoding config: %w", err)
	}

	target := c.path
	if resolved, err := filepath.EvalSymlinks(target); err == nil {
		target = resolved
	}
	dir := filepath.Dir(target)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating config directory: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".config-*.toml.tmp")
	if err != nil {
		return fmt.Errorf("writing config: %w", err)
	}
	tmpName := tmp.Name()
	defer os.Remove(tmpName) // a no-op once renamed
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		return fmt.Errorf("writing config: %w", err)
	}
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("writing config: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("writing config: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing config: %w", err)
	}
	if err := os.Rename(tmpName, target); err != nil {
		return fmt.Errorf("writing config: %w", err)
	}
	return nil
}
