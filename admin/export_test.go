package admin

import (
	"context"
	"sync/atomic"

	"github.com/uptrace/bun"
)

// BcryptCost lets tests hash passwords quickly.
var BcryptCost = &bcryptCost

// WaitImports waits for the imports this server runs in the background.
func (s *Server) WaitImports() { s.imports.wg.Wait() }

// CreateUser adds a staff user, as the Staff page does.
func CreateUser(ctx context.Context, db bun.IDB, username, password string) error {
	_, err := createUser(ctx, db, username, password)
	return err
}

// CountPasswordChecks makes s count its password comparisons in n.
func CountPasswordChecks(s *Server, n *atomic.Int32) {
	compare := s.compare
	s.compare = func(hash, password []byte) error {
		n.Add(1)
		return compare(hash, password)
	}
}
