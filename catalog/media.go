package catalog

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// MediaFile is an image uploaded in the admin panel, served at
// /media/{name} (product images shoppers see).
type MediaFile struct {
	bun.BaseModel `bun:"table:media"`

	ID          int64     `bun:"id,pk,autoincrement"`
	Name        string    `bun:"name,notnull"`
	ContentType string    `bun:"content_type,notnull"`
	Data        []byte    `bun:"data,notnull"`
	CreatedAt   time.Time `bun:"created_at,notnull"`
}

// SaveMedia stores an uploaded file.
func SaveMedia(ctx context.Context, db bun.IDB, m *MediaFile) error {
	if _, err := db.NewInsert().Model(m).Exec(ctx); err != nil {
		return fmt.Errorf("catalog: store media %s: %w", m.Name, err)
	}
	return nil
}

// GetMedia loads an uploaded file by name; ErrNotFound when there is none.
func GetMedia(ctx context.Context, db bun.IDB, name string) (*MediaFile, error) {
	m := new(MediaFile)
	if err := db.NewSelect().Model(m).Where("name = ?", name).Scan(ctx); err != nil {
		return nil, notFound(err, "media %q", name)
	}
	return m, nil
}
