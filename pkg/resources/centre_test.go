package resources

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// echoScheme is an extension's scheme: it answers every URL with the URL.
type echoScheme struct{}

func (echoScheme) Name() string { return "echo" }
func (echoScheme) Read(_ context.Context, _ *Centre, req Request) (Result, error) {
	return &Text{Kind: "text", Text: req.URL, Source: SourcePos{URL: req.URL, Line: 1, Column: 1}}, nil
}

func codeOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func TestRegisteredSchemeAndUnknownScheme(t *testing.T) {
	c := New(nil)
	if err := c.Register(echoScheme{}); err != nil {
		t.Fatal(err)
	}
	if err := c.Register(echoScheme{}); err == nil {
		t.Fatal("a scheme registered twice")
	}
	r, err := c.Read(context.Background(), Request{URL: "echo://hi:there?x=1"})
	if err != nil || r.(*Text).Text != "echo://hi:there?x=1" {
		t.Fatalf("%+v %v", r, err)
	}
	_, err = c.Read(context.Background(), Request{URL: "gopher://x"})
	if codeOf(err) != CodeInvalidArguments || !strings.Contains(err.Error(), "artifact://, asset://, echo://") {
		t.Fatalf("unknown scheme: %v", err)
	}
}

// readThrough reads url and every continue URL after it, returning the
// concatenated text.
func readThrough(t testing.TB, c *Centre, sc Scope, url string) string {
	t.Helper()
	var all strings.Builder
	for i := 0; url != ""; i++ {
		r, err := c.Read(context.Background(), Request{URL: url, Scope: sc})
		if err != nil {
			t.Fatalf("read %d %s: %v", i, url, err)
		}
		txt := r.(*Text)
		b, _ := json.Marshal(txt)
		if UTF16Len(string(b)) > MaxUnits*6/5 || !DefaultBudget().Fits(txt.Text) {
			t.Fatalf("page %d is over the budget", i)
		}
		all.WriteString(txt.Text)
		url = txt.Continue
	}
	return all.String()
}

func TestArchiveReadBackByteIdentical(t *testing.T) {
	c := New(nil)
	sc := Scope{SessionID: "ses_1", RunID: "run_1"}
	for name, s := range map[string]string{
		"ascii":  strings.Repeat("the quick brown fox jumps\n", 5<<20/26),
		"cjk":    strings.Repeat("漢字かな交じり文の行です。\n", 5<<20/40),
		"emoji":  strings.Repeat("😀🎉👩‍💻 ok\n", 5<<20/24),
		"single": strings.Repeat("ab😀", 200<<10/6),
	} {
		t.Run(name, func(t *testing.T) {
			tr, err := c.Archive(context.Background(), sc, "cmd", "text/plain", []byte(s))
			if err != nil {
				t.Fatal(err)
			}
			got := tr.Preview + readThrough(t, c, sc, tr.Continue)
			if got != s {
				t.Fatalf("read back %d bytes, want %d", len(got), len(s))
			}
			// Another session does not see it; a person does.
			if _, err := c.Read(context.Background(), Request{URL: tr.Artifact, Scope: Scope{SessionID: "ses_2"}}); codeOf(err) != CodeResourceNotFound {
				t.Fatalf("other session: %v", err)
			}
			m, err := c.Read(context.Background(), Request{URL: tr.Artifact + "?view=meta", Scope: Scope{Person: true}})
			if err != nil || m.(*Meta).Size != int64(len(s)) {
				t.Fatalf("meta: %+v %v", m, err)
			}
		})
	}
}

func TestWorkspaceJail(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "ws")
	outside := filepath.Join(base, "secret.txt")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "sub"), 0o755))
	must(os.WriteFile(outside, []byte("secret\n"), 0o600))
	must(os.WriteFile(filepath.Join(dir, "sub", "ok.txt"), []byte("one\ntwo\nthree\n"), 0o600))
	must(os.WriteFile(filepath.Join(dir, "a:b.txt"), []byte("colon\n"), 0o600))
	must(os.Symlink(outside, filepath.Join(dir, "out-link")))
	must(os.Symlink(base, filepath.Join(dir, "up")))
	must(os.Symlink("sub/ok.txt", filepath.Join(dir, "in-link")))
	must(os.Symlink("loop2", filepath.Join(dir, "loop1")))
	must(os.Symlink("loop1", filepath.Join(dir, "loop2")))
	must(os.Link(outside, filepath.Join(dir, "hard")))
	must(syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600))
	ws, err := Workspace(dir)
	must(err)
	c := New(nil)
	must(c.Register(ws))
	read := func(url string) (Result, error) { return c.Read(context.Background(), Request{URL: url}) }

	for url, want := range map[string]string{
		"workspace://sub/ok.txt:2":                        "two\n",
		"workspace://in-link":                             "one\ntwo\nthree\n",
		"workspace://a%3Ab.txt":                           "colon\n",
		"workspace://" + filepath.Join(dir, "sub/ok.txt"): "one\ntwo\nthree\n",
	} {
		r, err := read(url)
		if err != nil || r.(*Text).Text != want {
			t.Errorf("%s: %+v %v", url, r, err)
		}
	}
	for _, url := range []string{
		"workspace://../secret.txt", "workspace://sub/../../secret.txt", "workspace://%2e%2e/secret.txt",
		"workspace://sub/%2E%2E/%2e%2e/secret.txt", "workspace://" + outside, "workspace:///etc/passwd",
		"workspace://out-link", "workspace://up/secret.txt", "workspace://loop1", "workspace://hard",
		"workspace://fifo", "workspace:///dev/null",
	} {
		_, err := read(url)
		if codeOf(err) != CodePermissionDenied {
			t.Errorf("%s: %v, want permission_denied", url, err)
		}
		if err != nil && strings.Contains(err.Error(), base) && !strings.Contains(url, base) {
			t.Errorf("%s: the error shows a host path: %v", url, err)
		}
	}
	if _, err := read("workspace://missing.txt"); codeOf(err) != CodeResourceNotFound {
		t.Errorf("missing: %v", err)
	}
	// Without --workspace, nothing.
	c2 := New(nil)
	must(c2.Register(NoWorkspace()))
	if _, err := c2.Read(context.Background(), Request{URL: "workspace://sub/ok.txt"}); codeOf(err) != CodePermissionDenied {
		t.Errorf("no workspace: %v", err)
	}
}
