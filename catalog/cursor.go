package catalog

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
)

// Cursor is where a page of a keyset-paginated list ended: the sort key
// (a number or a text) and the id of its last row, so page 2,000 costs
// what page 1 costs. ListProductPage and ListInbox return the next page's
// as a string.
type Cursor struct {
	Num int64  `json:"n,omitempty"`
	Str string `json:"s,omitempty"`
	ID  int64  `json:"id"`
}

// String encodes c for a URL.
func (c Cursor) String() string {
	b, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(b)
}

// ParseCursor decodes a Cursor's String: nil for "", an ErrInvalid error
// for text that is not one.
func ParseCursor(s string) (*Cursor, error) {
	if s == "" {
		return nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	c := new(Cursor)
	if err == nil {
		err = json.Unmarshal(b, c)
	}
	if err != nil {
		return nil, fmt.Errorf("catalog: list cursor: %w: %v", ErrInvalid, err)
	}
	return c, nil
}
