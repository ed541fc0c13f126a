package store

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
)

// A cursor is the position after the last row of a page: a sort key and a
// tie-breaking id, tagged with the listing it belongs to so a cursor from
// one listing is refused by another. It is opaque to callers (base64url).

func encodeCursor(kind string, key int64, id string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(kind + ":" + strconv.FormatInt(key, 10) + ":" + id))
}

// decodeCursor returns the position in c; "" is the first page.
func decodeCursor(kind, c string) (key int64, id string, err error) {
	if c == "" {
		return 0, "", nil
	}
	bad := fmt.Errorf("cursor %q is not one this listing gave out: %w", c, ErrInvalid)
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return 0, "", bad
	}
	k, rest, ok := strings.Cut(string(raw), ":")
	if !ok || k != kind {
		return 0, "", bad
	}
	n, id, ok := strings.Cut(rest, ":")
	if !ok {
		return 0, "", bad
	}
	key, err = strconv.ParseInt(n, 10, 64)
	if err != nil {
		return 0, "", bad
	}
	return key, id, nil
}

// pageLimit checks limit against 1..max; 0 means def.
func pageLimit(limit, def, max int) (int, error) {
	switch {
	case limit == 0:
		return def, nil
	case limit < 0 || limit > max:
		return 0, fmt.Errorf("limit %d is out of range 1–%d: %w", limit, max, ErrInvalid)
	}
	return limit, nil
}
