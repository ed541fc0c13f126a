// Package extensions turns the configuration's extension tools into tools a
// run can call: command tools ([tools.NAME], a local program that reads its
// arguments as JSON on stdin), the tools of MCP servers ([mcp.NAME], over
// stdio or streamable HTTP, through the official Go SDK), and
// extension_tool_search, which finds both for the model under dynamic
// loading.
//
// Stable IDs: a command tool is extension/command:<name>; an MCP tool is
// mcp/<server>:<tool>. MCP servers are connected lazily, the first time a
// run (or a tavo tools command) needs their tools, and closed by Set.Close.
package extensions
