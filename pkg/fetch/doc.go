// Package fetch is tavo's web fetch engine: one HTTP(S) GET with the caller's
// headers, bounded redirects, streaming limits on the wire and decompressed
// bytes, charset decoding, conversion of HTML, Markdown, plain text, JSON and
// XML to Markdown, main-content extraction, paging with tamper-evident
// cursors over cached snapshots, and an audit hook.
//
// It knows nothing of models or commands: the tavo_web_fetch tool and the
// `tavo fetch` command both adapt it (SPEC §6).
package fetch
