package catalog

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"

	"github.com/uptrace/bun"
)

type serverSecret struct {
	bun.BaseModel `bun:"table:server_secrets"`
	Name          string `bun:"name,pk"`
	Value         string `bun:"value"`
}

// ServerSecret returns the secret named name (server_secrets), making a
// random 32-byte one on first use. Replicas asking at once agree: the
// first insert wins, and every caller reads back the stored value.
func ServerSecret(ctx context.Context, db bun.IDB, name string) ([]byte, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("catalog: make secret %s: %w", name, err)
	}
	row := &serverSecret{Name: name, Value: base64.StdEncoding.EncodeToString(b)}
	_, err := db.NewInsert().Model(row).On("CONFLICT (name) DO NOTHING").Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: store secret %s: %w", name, err)
	}
	var v string
	if err := db.NewSelect().TableExpr("server_secrets").Column("value").Where("name = ?", name).Scan(ctx, &v); err != nil {
		return nil, fmt.Errorf("catalog: load secret %s: %w", name, err)
	}
	secret, err := base64.StdEncoding.DecodeString(v)
	if err != nil || len(secret) < 16 {
		return nil, fmt.Errorf("catalog: secret %s is damaged; delete its server_secrets row to make a new one", name)
	}
	return secret, nil
}
