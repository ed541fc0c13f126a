package files

// Schema fragments shared by the file tools' argument schemas.
const (
	nameProp = `"name": {"type": "string", "minLength": 1, "description": "One file name such as \"report.md\": no folders ('/' or '\\'), no ':', not '.' or '..'."}`

	scopeProp = `"scope": {"type": "string", "enum": ["chat", "global"], "default": "chat", "description": "chat (default): this conversation's files. global: files shared by every conversation; use it only when the file must be reachable from other chats."}`

	encodingProp = `"encoding": {"type": "string", "enum": ["utf8", "base64", "dataUrl"], "default": "utf8", "description": "utf8 (default) for text; base64 or dataUrl (data:<mime>;base64,<data>) for binary content."}`
)

// SaveSchema is the JSON Schema of tavo_file_save's arguments.
const SaveSchema = `{
  "type": "object",
  "properties": {
    ` + nameProp + `,
    "content": {"type": "string", "description": "The whole file content, in options.encoding."},
    "options": {"type": "object", "properties": {` + scopeProp + `, ` + encodingProp + `}, "additionalProperties": false}
  },
  "required": ["name", "content"],
  "additionalProperties": false
}`

// LoadSchema is the JSON Schema of tavo_file_load's arguments.
const LoadSchema = `{
  "type": "object",
  "properties": {
    ` + nameProp + `,
    "options": {"type": "object", "properties": {` + scopeProp + `, ` + encodingProp + `}, "additionalProperties": false}
  },
  "required": ["name"],
  "additionalProperties": false
}`

// NameSchema is the JSON Schema of tavo_file_delete's and
// tavo_file_exists's arguments.
const NameSchema = `{
  "type": "object",
  "properties": {
    ` + nameProp + `,
    "options": {"type": "object", "properties": {` + scopeProp + `}, "additionalProperties": false}
  },
  "required": ["name"],
  "additionalProperties": false
}`

// ListSchema is the JSON Schema of tavo_file_list's arguments.
const ListSchema = `{
  "type": "object",
  "properties": {
    "options": {"type": "object", "properties": {
      ` + scopeProp + `,
      "limit": {"type": "integer", "minimum": 1, "maximum": 200, "default": 100, "description": "Most files in this page (1-200, default 100)."},
      "cursor": {"type": "string", "minLength": 1, "description": "nextCursor from the previous page of the same scope, to continue the listing."}
    }, "additionalProperties": false}
  },
  "additionalProperties": false
}`
