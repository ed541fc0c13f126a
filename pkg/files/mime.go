package files

import (
	"net/http"
	"path"
	"strings"
)

// sniffBytes is how much of a file content sniffing reads.
const sniffBytes = 512

// mimeByExt maps lower-case extensions to MIME types. It is tavo's own table
// rather than the mime package's, which reads the system's mime.types and so
// would answer differently from one machine to the next.
var mimeByExt = map[string]string{
	".txt": "text/plain", ".text": "text/plain", ".log": "text/plain",
	".md": "text/markdown", ".markdown": "text/markdown",
	".csv": "text/csv", ".tsv": "text/tab-separated-values",
	".html": "text/html", ".htm": "text/html", ".css": "text/css",
	".js": "text/javascript", ".mjs": "text/javascript",
	".json": "application/json", ".ndjson": "application/x-ndjson", ".jsonl": "application/x-ndjson",
	".xml": "application/xml", ".yaml": "application/yaml", ".yml": "application/yaml",
	".toml": "application/toml", ".ini": "text/plain",
	".py": "text/x-python", ".go": "text/x-go", ".rs": "text/x-rust", ".sh": "application/x-sh",
	".sql": "application/sql", ".ts": "text/typescript",
	".svg": "image/svg+xml", ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
	".gif": "image/gif", ".webp": "image/webp", ".bmp": "image/bmp", ".ico": "image/x-icon",
	".avif": "image/avif", ".tif": "image/tiff", ".tiff": "image/tiff",
	".pdf": "application/pdf", ".zip": "application/zip", ".gz": "application/gzip",
	".tar": "application/x-tar", ".wasm": "application/wasm",
	".mp3": "audio/mpeg", ".wav": "audio/wav", ".ogg": "audio/ogg", ".flac": "audio/flac", ".m4a": "audio/mp4",
	".mp4": "video/mp4", ".webm": "video/webm", ".mov": "video/quicktime",
	".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
}

// MIMEByName returns the MIME type a file name's extension implies, or ""
// when the extension is unknown or absent.
func MIMEByName(name string) string {
	return mimeByExt[strings.ToLower(path.Ext(name))]
}

// DetectMIME returns the MIME type of a file: from its extension when known,
// else sniffed from head, its first bytes (the WHATWG algorithm of
// net/http), without parameters: "text/plain", "image/png",
// "application/octet-stream".
func DetectMIME(name string, head []byte) string {
	if t := MIMEByName(name); t != "" {
		return t
	}
	if len(head) > sniffBytes {
		head = head[:sniffBytes]
	}
	t := http.DetectContentType(head)
	if i := strings.IndexByte(t, ';'); i >= 0 {
		t = strings.TrimSpace(t[:i])
	}
	return t
}
