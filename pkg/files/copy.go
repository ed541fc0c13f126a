package files

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// CopyReport is what CopyAll moved: how many files, their bytes, and a
// checksum over every file's path and content that both stores agreed on.
type CopyReport struct {
	Files  int    `json:"files"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// Locations are the scopes that hold files: global and the chat scope of
// every session with a folder (on disk) or a row (in a database).
func (s *Store) Locations(ctx context.Context) ([]Location, error) {
	out := []Location{Global()}
	db, err := s.database(ctx)
	if err != nil {
		return nil, err
	}
	if db != nil {
		rows, err := db.QueryContext(ctx, `SELECT DISTINCT session_id FROM files WHERE scope = 'chat'`)
		if err != nil {
			return nil, unavailable("listing the scopes", false, err)
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				return nil, unavailable("listing the scopes", false, err)
			}
			out = append(out, Chat(id))
		}
		return out, rows.Err()
	}
	ents, err := os.ReadDir(filepath.Join(s.root, sessionsDir))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, unavailable("listing the scopes", false, err)
	}
	for _, e := range ents {
		if e.IsDir() && CheckSession(e.Name()) == nil {
			out = append(out, Chat(e.Name()))
		}
	}
	return out, nil
}

// CopyAll copies every file of src into dst (replacing files of the same
// name), then reads each back from dst and compares it with the source, so
// the report's checksum is one both stores gave.
func CopyAll(ctx context.Context, src, dst *Store) (CopyReport, error) {
	locs, err := src.Locations(ctx)
	if err != nil {
		return CopyReport{}, err
	}
	var rep CopyReport
	var sums [][32]byte
	for _, loc := range locs {
		cursor := ""
		for {
			page, err := src.List(ctx, loc, ListOptions{Limit: MaxListLimit, Cursor: cursor})
			if err != nil {
				return rep, err
			}
			for _, e := range page.Files {
				data, _, err := src.Load(ctx, loc, e.Name)
				if err != nil {
					return rep, err
				}
				if _, err := dst.Save(ctx, loc, e.Name, data); err != nil {
					return rep, err
				}
				back, _, err := dst.Load(ctx, loc, e.Name)
				if err != nil {
					return rep, err
				}
				if !bytes.Equal(back, data) {
					return rep, fmt.Errorf("files: %s %s differs after the copy", loc.Scope, e.Path)
				}
				key := string(loc.Scope) + "/" + loc.Session + "/" + e.Name + "\x00"
				sums = append(sums, sha256.Sum256(append([]byte(key), data...)))
				rep.Files++
				rep.Bytes += int64(len(data))
			}
			if page.NextCursor == "" {
				break
			}
			cursor = page.NextCursor
		}
	}
	slices.SortFunc(sums, func(a, b [32]byte) int { return bytes.Compare(a[:], b[:]) })
	h := sha256.New()
	for _, x := range sums {
		h.Write(x[:])
	}
	rep.SHA256 = hex.EncodeToString(h.Sum(nil))
	return rep, nil
}
