package fake

import (
	"encoding/base64"
	"fmt"
)

// The fake makes up the opaque reasoning data each provider attaches, so that
// tests can check a codec sends it back unchanged. The values depend only on
// the request's number on the server (1 for the first request) and the
// position of the block, so a test can compute what to expect.

// ThinkingSignature is the signature of the Anthropic thinking block at
// content index block in the answer to request seq.
func ThinkingSignature(seq, block int) string {
	return base64.StdEncoding.EncodeToString(fmt.Appendf(nil, "fake-thinking-signature/%d/%d", seq, block))
}

// ThoughtSignature is the Gemini thoughtSignature on the first functionCall
// part of the answer to request seq (Gemini 3 signs the first call of every
// step).
func ThoughtSignature(seq int) string {
	return base64.StdEncoding.EncodeToString(fmt.Appendf(nil, "fake-thought-signature/%d", seq))
}

// EncryptedReasoning is the encrypted_content of the Responses reasoning item
// at output index item in the answer to request seq; it is only sent when
// the request asked for include:["reasoning.encrypted_content"].
func EncryptedReasoning(seq, item int) string {
	return "gAAAAAfake" + base64.RawURLEncoding.EncodeToString(fmt.Appendf(nil, "encrypted-reasoning/%d/%d", seq, item))
}

// ReasoningItemID is the id of the Responses reasoning item at output index
// item in the answer to request seq.
func ReasoningItemID(seq, item int) string {
	return fmt.Sprintf("rs_fake%06d_%d", seq, item)
}
