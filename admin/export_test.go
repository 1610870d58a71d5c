package admin

import "sync/atomic"

// BcryptCost lets tests hash passwords quickly.
var BcryptCost = &bcryptCost

// CountPasswordChecks makes s count its password comparisons in n.
func CountPasswordChecks(s *Server, n *atomic.Int32) {
	compare := s.compare
	s.compare = func(hash, password []byte) error {
		n.Add(1)
		return compare(hash, password)
	}
}
