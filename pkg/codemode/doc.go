// Package codemode runs the programs of code mode (SPEC §12): the body of an
// async JavaScript function, in a fresh QuickJS runtime per program
// (modernc.org/quickjs, pure Go), whose only way out is the tool calls the
// caller allows. It knows nothing of models or of tavo's tools: the caller
// passes a CallFunc, and gets back the program's return value as JSON.
//
// The sandbox has no file system, network, process, timers or clock (Date
// without arguments and Date.now throw): QuickJS itself ships none of them
// and this package adds none. Limits per program: memory (64 MiB), tool
// calls (64) and console output (16 KiB) here; the wall clock is the
// caller's context (a deadline ends the program with timeout, a
// cancellation with cancelled, promptly, even inside a busy loop).
package codemode
