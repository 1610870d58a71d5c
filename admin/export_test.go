package admin

// BcryptCost lets tests hash passwords quickly.
var BcryptCost = &bcryptCost

// WaitImports waits for the imports this server runs in the background.
func (s *Server) WaitImports() { s.imports.wg.Wait() }
