//go:build !linux

package store

import (
	"errors"
	"os"
)

// allocate is unavailable here; the caller writes zeros instead.
func allocate(*os.File, int64) error { return errors.ErrUnsupported }
