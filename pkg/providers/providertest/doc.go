// Package providertest holds what the codec packages' tests share: a
// recording Sink, the standard request and tool, an error assertion that
// also looks for a leaked key, and table-driven checks of behaviour every
// codec must have (errors that are not retried, retries that run out, finish
// reasons, cut streams, …).
//
// It is imported by tests only. What needs a codec's unexported fields (its
// transport's Sleep) stays in that codec's package and reaches the shared
// checks through a Codec value.
package providertest
