//go:build !unix

package store

import "errors"

// fileLock is unavailable here: tavo's store needs flock(2).
type fileLock struct{}

func tryLock(path string) (*fileLock, bool, error) {
	return nil, false, errors.New("session locks need a Unix system (flock)")
}

func (l *fileLock) release() {}
