package state

import "github.com/tavo-cli/tavo/pkg/store"

// CheckVarName is store.CheckVarName, where the rule now lives.
//
// Deprecated: call store.CheckVarName; this stays only until `tavo run
// --var` (cmd/run.go) does.
func CheckVarName(name string) error { return store.CheckVarName(name) }

// PrepareValue is store.PrepareValue, where the rule now lives.
//
// Deprecated: call store.PrepareValue; this stays only until `tavo run
// --var` (cmd/run.go) does.
func PrepareValue(raw []byte) (compact []byte, warning string, err error) {
	return store.PrepareValue(raw)
}
