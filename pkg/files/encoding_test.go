package files

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		content string
		enc     Encoding
		want    string
	}{
		{"héllo\n", UTF8, "héllo\n"},
		{"héllo", "", "héllo"},
		{"aGk=", Base64, "hi"},
		{"aGk", Base64, "hi"},
		{"aGVsbG8g\nd29ybGQ=\n", Base64, "hello world"},
		{"-_8=", Base64, "\xfb\xff"},
		{"", Base64, ""},
		{"data:text/plain;base64,aGk=", DataURL, "hi"},
		{"DATA:image/png;BASE64,AAE=", DataURL, "\x00\x01"},
		{"data:,a%20b", DataURL, "a b"},
		{"data:;charset=utf-8,x", DataURL, "x"},
		{"data:text/plain;charset=utf-8;base64,aGk%3D", DataURL, "hi"},
		{"data:application/octet-stream;base64,", DataURL, ""},
	} {
		got, err := Decode(tc.content, tc.enc)
		if err != nil || string(got) != tc.want {
			t.Errorf("Decode(%q, %s) = %q, %v; want %q", tc.content, tc.enc, got, err, tc.want)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	for _, tc := range []struct {
		content string
		enc     Encoding
		field   string
	}{
		{"not base64!", Base64, "content"},
		{"aGk==x", Base64, "content"},
		{"a", Base64, "content"},
		{"text/plain;base64,aGk=", DataURL, "content"},
		{"data:text/plain;base64aGk=", DataURL, "content"},
		{"data:text/plain;base64,@@@", DataURL, "content"},
		{"data:not a type;base64,aGk=", DataURL, "content"},
		{"data:,%zz", DataURL, "content"},
		{"hi", "hex", "encoding"},
	} {
		_, err := Decode(tc.content, tc.enc)
		var fe *Error
		if !errors.As(err, &fe) || fe.Kind != KindInvalid || fe.Field != tc.field || fe.Expected == "" {
			t.Errorf("Decode(%q, %s) = %v, want invalid %s", tc.content, tc.enc, err, tc.field)
			continue
		}
		if tc.field == "content" && len(tc.content) > 4 && strings.Contains(fe.Msg, tc.content) {
			t.Errorf("the error echoes the content: %q", fe.Msg)
		}
	}
}

func TestEncode(t *testing.T) {
	s, err := Encode([]byte("héllo"), "text/plain", UTF8)
	if err != nil || s != "héllo" {
		t.Fatalf("utf8: %q %v", s, err)
	}
	s, err = Encode([]byte{0, 1, 2}, "image/png", Base64)
	if err != nil || s != "AAEC" {
		t.Fatalf("base64: %q %v", s, err)
	}
	s, err = Encode([]byte{0, 1, 2}, "image/png", DataURL)
	if err != nil || s != "data:image/png;base64,AAEC" {
		t.Fatalf("dataUrl: %q %v", s, err)
	}
	s, _ = Encode([]byte("x"), "", DataURL)
	if !strings.HasPrefix(s, "data:application/octet-stream;base64,") {
		t.Fatalf("dataUrl without type: %q", s)
	}
	for _, bin := range [][]byte{{0xff, 0xfe}, []byte("a\x00b")} {
		_, err := Encode(bin, "", UTF8)
		var fe *Error
		if !errors.As(err, &fe) || fe.Field != "encoding" || !strings.Contains(fe.Msg, "base64 or dataUrl") {
			t.Errorf("binary %q as utf8: %v", bin, err)
		}
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	data := []byte("\x00\x01\x02binary\xff\xfe and text")
	for _, enc := range []Encoding{Base64, DataURL} {
		s, err := Encode(data, "application/octet-stream", enc)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Decode(s, enc)
		if err != nil || !bytes.Equal(back, data) {
			t.Fatalf("%s round trip: %q %v", enc, back, err)
		}
	}
}

func TestParseEncoding(t *testing.T) {
	if e, err := ParseEncoding(""); err != nil || e != UTF8 {
		t.Fatalf("default: %v %v", e, err)
	}
	if _, err := ParseEncoding("dataurl"); !errors.Is(err, ErrInvalid) {
		t.Fatalf("case matters: %v", err)
	}
}

func TestDetectMIME(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	for _, tc := range []struct {
		name string
		head []byte
		want string
	}{
		{"notes.txt", []byte{0xff}, "text/plain"},
		{"README.MD", nil, "text/markdown"},
		{"data.json", nil, "application/json"},
		{"image", png, "image/png"},
		{"blob", []byte{0, 1, 2, 3, 0xff}, "application/octet-stream"},
		{"plain", []byte("hello"), "text/plain"},
		{"page", []byte("<!DOCTYPE html><html>"), "text/html"},
		{"odd.unknownext", []byte("%PDF-1.7"), "application/pdf"},
	} {
		if got := DetectMIME(tc.name, tc.head); got != tc.want {
			t.Errorf("DetectMIME(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func FuzzDecodeDataURL(f *testing.F) {
	for _, s := range []string{"data:,x", "data:text/plain;base64,aGk=", "data:;base64,", "data:a/b;c=d,%41", "data:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := Decode(s, DataURL)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error of the wrong kind: %v", err)
			}
			return
		}
		if !strings.HasPrefix(strings.ToLower(s), "data:") || !strings.Contains(s, ",") {
			t.Fatalf("accepted %q", s)
		}
		_ = b
	})
}
