package state

import (
	"strconv"

	"github.com/tavo-cli/tavo/pkg/store"
)

// Schema fragments shared by the state tools' argument schemas. The limits
// come from the same constants the store checks, so they cannot drift.
var (
	memoryItem = `{"type": "string", "minLength": 1, "maxLength": ` + strconv.Itoa(store.MaxMemoryItemChars) + `}`
	maxItems   = strconv.Itoa(store.MaxMemoryItems)

	varNameProp = `"name": {"type": "string", "minLength": 1, "maxLength": ` + strconv.Itoa(store.MaxVarNameLen) + `, "description": "A dotted name such as \"user.prefs.theme\": segments of letters, digits, '_' or '-', joined by single dots."}`
)

const (
	varScopeProp = `"scope": {"type": "string", "enum": ["chat", "global"], "default": "chat", "description": "chat (default): this conversation's variables. global: variables shared by every conversation."}`
)

// emptySchema takes no arguments.
const emptySchema = `{"type": "object", "properties": {}, "additionalProperties": false}`

// memoryUpdateSchema is the JSON Schema of tavo_memory_update's arguments.
var memoryUpdateSchema = `{
  "type": "object",
  "properties": {
    "enabled": {"type": "boolean", "description": "true: notes are added to the system prompt; false: they are kept but not injected."},
    "memories": {"type": "array", "maxItems": ` + maxItems + `, "items": ` + memoryItem + `, "description": "The complete new list of notes; it replaces every existing note ([] removes them all)."}
  },
  "additionalProperties": false
}`

// memoryAppendSchema is the JSON Schema of tavo_memory_append's arguments.
var memoryAppendSchema = `{
  "type": "object",
  "properties": {
    "items": {"type": "array", "minItems": 1, "maxItems": ` + maxItems + `, "items": ` + memoryItem + `, "description": "Notes to add, one self-contained fact or preference each."}
  },
  "required": ["items"],
  "additionalProperties": false
}`

// varNameSchema is the JSON Schema of tavo_var_get's and tavo_var_delete's
// arguments.
var varNameSchema = `{
  "type": "object",
  "properties": {
    ` + varNameProp + `,
    ` + varScopeProp + `
  },
  "required": ["name"],
  "additionalProperties": false
}`

// varSetSchema is the JSON Schema of tavo_var_set's arguments. value has no
// type: any JSON value is accepted.
var varSetSchema = `{
  "type": "object",
  "properties": {
    ` + varNameProp + `,
    "value": {"description": "Any JSON value: string, number, boolean, null, array or object."},
    ` + varScopeProp + `
  },
  "required": ["name", "value"],
  "additionalProperties": false
}`

// varListSchema is the JSON Schema of tavo_var_list's arguments.
var varListSchema = `{
  "type": "object",
  "properties": {
    ` + varScopeProp + `,
    "prefix": {"type": "string", "minLength": 1, "description": "Only names that start with this text, e.g. \"user.\"."}
  },
  "additionalProperties": false
}`

// todoWriteSchema is the JSON Schema of tavo_todo_write's arguments.
var todoWriteSchema = `{
  "type": "object",
  "properties": {
    "todos": {
      "type": "array",
      "maxItems": ` + strconv.Itoa(MaxTodos) + `,
      "description": "The whole list, in order; it replaces the previous one ([] clears it).",
      "items": {
        "type": "object",
        "properties": {
          "content": {"type": "string", "minLength": 1, "maxLength": ` + strconv.Itoa(MaxTodoChars) + `, "description": "What to do, in the imperative: \"Fetch the release notes\"."},
          "status": {"type": "string", "enum": ["pending", "in_progress", "completed"], "description": "pending, in_progress (at most one item) or completed."},
          "active_form": {"type": "string", "maxLength": ` + strconv.Itoa(MaxTodoChars) + `, "description": "The same task in the present continuous, shown while it is in progress: \"Fetching the release notes\"."}
        },
        "required": ["content", "status"],
        "additionalProperties": false
      }
    }
  },
  "required": ["todos"],
  "additionalProperties": false
}`

// memoryIDProp is the id argument of the item tools.
const memoryIDProp = `"id": {"type": "string", "pattern": "^m[1-9][0-9]{0,17}$", "description": "The note's id, as tavo_memory_save, _list or _search gave it (like \"m12\")."}`

// memoryLimitProp is the limit argument of tavo_memory_list and _search.
var memoryLimitProp = `"limit": {"type": "integer", "minimum": 1, "maximum": ` + strconv.Itoa(store.MaxMemoryPage) + `, "description": "The most notes to return (default ` + strconv.Itoa(store.DefaultMemoryPage) + `)."}`

// memorySaveSchema is the JSON Schema of tavo_memory_save's arguments.
var memorySaveSchema = `{
  "type": "object",
  "properties": {
    "content": ` + memoryItem + `
  },
  "required": ["content"],
  "additionalProperties": false
}`

// memoryEditSchema is the JSON Schema of tavo_memory_edit's arguments.
var memoryEditSchema = `{
  "type": "object",
  "properties": {
    ` + memoryIDProp + `,
    "content": ` + memoryItem + `
  },
  "required": ["id", "content"],
  "additionalProperties": false
}`

// memoryDeleteSchema is the JSON Schema of tavo_memory_delete's arguments.
const memoryDeleteSchema = `{
  "type": "object",
  "properties": {
    ` + memoryIDProp + `
  },
  "required": ["id"],
  "additionalProperties": false
}`

// memoryListSchema is the JSON Schema of tavo_memory_list's arguments.
var memoryListSchema = `{
  "type": "object",
  "properties": {
    ` + memoryLimitProp + `,
    "cursor": {"type": "string", "minLength": 1, "description": "next_cursor of the previous page."}
  },
  "additionalProperties": false
}`

// memorySearchSchema is the JSON Schema of tavo_memory_search's arguments.
var memorySearchSchema = `{
  "type": "object",
  "properties": {
    "query": {"type": "string", "minLength": 1, "maxLength": 1000, "description": "Words to look for; notes matching more of them rank first."},
    ` + memoryLimitProp + `
  },
  "required": ["query"],
  "additionalProperties": false
}`
