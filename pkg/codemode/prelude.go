package codemode

import "strings"

// prelude sets up a fresh runtime before the program runs: it takes the
// three host functions off the global object (only its closures keep
// them), installs tools, console and a Date without a clock, and returns
// the function that reports how the program's promise settles. It is one
// line, so a program's own lines start at line 2 of the script and every
// stack frame on line 1 is the prelude's (see position).
//
// Values cross between Go and JavaScript as JSON text only: arguments are
// JSON.stringify'd here and checked by the tool's schema in Go, results
// arrive as the tool's JSON envelope and are JSON.parse'd here. No Go
// object is ever visible to the program.
var prelude = oneLine(`(function (g) {
"use strict";
const call = g.__tavo_call, settle = g.__tavo_settle, log = g.__tavo_log;
delete g.__tavo_call; delete g.__tavo_settle; delete g.__tavo_log;
const D = Date;
const noClock = function () { throw new TypeError("code mode has no clock: Date.now() and Date() or new Date() without arguments are not available"); };
const SafeDate = new Proxy(D, {
  apply: noClock,
  construct: function (t, a, nt) { if (a.length === 0) { noClock(); } return Reflect.construct(t, a, nt); }
});
Object.defineProperty(D, "now", { value: noClock });
Object.defineProperty(D.prototype, "constructor", { value: SafeDate });
g.Date = SafeDate;
const show = function (v) {
  try {
    if (typeof v === "string") { return v; }
    const s = JSON.stringify(v);
    return s === undefined ? String(v) : s;
  } catch (e) {
    try { return String(v); } catch (e2) { return "[a value that cannot be printed]"; }
  }
};
const print = function (...a) { log(a.map(show).join(" ")); };
g.console = Object.freeze({ log: print, info: print, warn: print, error: print, debug: print });
const toolError = function (e) {
  const err = new Error(String(e.message));
  err.code = String(e.code);
  if (e.details !== undefined) { err.details = e.details; }
  return err;
};
const invoke = function (name, args) {
  if (args === undefined) { args = {}; }
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    throw new TypeError("tools." + name + " takes one object of arguments, like tools." + name + "({...})");
  }
  const r = JSON.parse(call(name, JSON.stringify(args)));
  if (!r.ok) { throw toolError(r.error); }
  return r.result;
};
g.tools = new Proxy(Object.freeze(Object.create(null)), {
  get: function (t, name) {
    if (typeof name !== "string" || name === "then") { return undefined; }
    return async function (args) { return invoke(name, args); };
  },
  set: function () { return false; },
  defineProperty: function () { return false; }
});
const describe = function (e) {
  try {
    if (e instanceof Error) {
      const d = { name: String(e.name), message: String(e.message), stack: String(e.stack || "") };
      if (typeof e.code === "string") { d.code = e.code; }
      return JSON.stringify(d);
    }
    return JSON.stringify({ thrown: show(e) });
  } catch (x) {
    return "{\"thrown\":\"a value that cannot be printed\"}";
  }
};
return function (p) {
  p.then(function (v) {
    let s;
    try { s = JSON.stringify(v === undefined ? null : v); } catch (e) { settle(false, JSON.stringify({ notJSON: String(e && e.message) })); return; }
    settle(true, s === undefined ? "null" : s);
  }, function (e) { settle(false, describe(e)); });
};
})(globalThis)((async function () {`)

// epilogue closes the program's function after its last line.
const epilogue = "\n})());"

// oneLine joins the lines of s with spaces; s must not hold // comments.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}
