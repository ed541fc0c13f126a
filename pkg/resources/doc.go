// Package resources is the resource centre behind tavo_read and `tavo read`
// (SPEC §11): a registry of URL schemes (artifact, local, workspace, asset,
// http(s), and any an extension registers), line selectors, the text budget
// every model-visible page keeps to, continue URLs, and the one exit every
// oversized tool result goes through: archived whole as an artifact, the
// model shown a first page and the URL to read on.
//
// The package knows nothing of models, tools or Cobra: pkg/tools adapts it to
// the model (tavo_read and the executor's exit), cmd adapts it to people.
package resources
