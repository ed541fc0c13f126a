package fetch

import (
	"context"
	"net/url"
	"testing"
	"unicode/utf8"
)

func FuzzCursorDecode(f *testing.F) {
	codec := cursorCodec{key: []byte("0123456789abcdef0123456789abcdef"), kind: kindMemory}
	valid := codec.encode(cursorData{id: [idBytes]byte{1, 2, 3}, expires: 1700000000, offset: 24576})
	f.Add(valid)
	f.Add("")
	f.Add("AAAA")
	f.Add(valid[:10])
	f.Fuzz(func(t *testing.T, s string) {
		d, err := codec.decode(s)
		if err != nil {
			if fe, ok := err.(*Error); !ok || fe.Code != CodeInvalidArguments {
				t.Fatalf("decode error %v is not invalid_arguments", err)
			}
			return
		}
		// Whatever decodes must be exactly what the codec would mint.
		if codec.encode(d) != s {
			t.Fatalf("decode accepted %q, which the codec did not mint", s)
		}
	})
}

func FuzzConvertHTML(f *testing.F) {
	for _, s := range []string{
		articleHTML,
		articlePage(),
		linkListPage,
		"<table><tr><td rowspan=9999999>x</td></tr></table>",
		"<a href='javascript:x'><img src='data:image/png;base64,AAAA'></a>",
		"<base href='::::'><a href='../../x'>x</a>",
		"<pre><code>```</code></pre><ul><li><ol><li>deep",
		"\xff\xfe<\x00p\x00>",
	} {
		f.Add([]byte(s), "auto")
	}
	page, _ := url.Parse("https://example.com/a/b?q=1")
	c := NewConverter()
	f.Fuzz(func(t *testing.T, src []byte, mode string) {
		if len(src) > 64<<10 {
			return
		}
		out, err := c.Convert(context.Background(), src, "text/html", page, Extract(mode))
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error %T %v is not *Error", err, err)
			}
			return
		}
		if !utf8.ValidString(out.Markdown) || !utf8.ValidString(out.Title) {
			t.Fatalf("output is not valid UTF-8")
		}
	})
}
