//go:build !unix

package store

import (
	"errors"
	"os"
)

// fileLock is unavailable here: tavo's store needs flock(2).
type fileLock struct{}

func tryLockSession(dir, id string) (*fileLock, bool, error) {
	return nil, false, errors.New("session locks need a Unix system (flock)")
}

func (l *fileLock) release() {}

// probeWritable checks that a file can be created in dir.
func probeWritable(dir string) error {
	f, err := os.CreateTemp(dir, ".tavo-probe-*")
	if err != nil {
		return err
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}
