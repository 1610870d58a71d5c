package admin

import (
	"context"
	"net/http"
	"sync/atomic"

	"github.com/uptrace/bun"

	"shopbot/catalog/team"
)

// BcryptCost lets tests hash passwords quickly.
var BcryptCost = &bcryptCost

// WaitImports waits for the imports this server runs in the background.
func (s *Server) WaitImports() { s.imports.wg.Wait() }

// CreateUser adds a staff user (a manager: what every user could do
// before roles, short of settings and staff), as the Staff page does.
func CreateUser(ctx context.Context, db bun.IDB, username, password string) error {
	_, err := createUser(ctx, db, username, password, team.StaffManager)
	return err
}

// CreateUserAs adds a staff user with a role.
func CreateUserAs(ctx context.Context, db bun.IDB, username, password string, role team.StaffRole) error {
	_, err := createUser(ctx, db, username, password, role)
	return err
}

// Route is a row of the panel's route table, as tests see it.
type Route struct {
	Pattern string
	Public  bool
	Action  bool
	Allows  func(team.StaffRole) bool
	Audit   string
}

// RouteTable is the panel's route table.
func (s *Server) RouteTable() []Route {
	var out []Route
	for _, rt := range s.routeTable() {
		out = append(out, Route{Pattern: rt.pattern, Public: rt.kind == kindPublic, Action: rt.kind == kindAction, Allows: rt.who.allows, Audit: rt.audit})
	}
	return out
}

// CountPasswordChecks makes s count its password comparisons in n.
func CountPasswordChecks(s *Server, n *atomic.Int32) {
	compare := s.compare
	s.compare = func(hash, password []byte) error {
		n.Add(1)
		return compare(hash, password)
	}
}

// Handler mounts s's probes and metrics at the paths bot/routes.go gives
// them and, with a database, the panel's own route table (Routes), with
// chat, when not nil, as the web chat API.
func Handler(s *Server, chat http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", s.Healthz)
	mux.HandleFunc("GET /readyz", s.Readyz)
	mux.Handle("GET /metrics", s.Metrics())
	if chat != nil {
		mux.Handle("POST /api/chat", chat)
	}
	if s.db != nil {
		s.Routes(mux)
	}
	return s.Instrument(mux)
}

// PageNames lists the page templates (a test renders every one).
func (s *Server) PageNames() []string {
	out := make([]string, 0, len(s.pages))
	for n := range s.pages {
		out = append(out, n)
	}
	return out
}

// WaitReplay waits for the Replay page's batch, if one was started.
func (s *Server) WaitReplay() {
	s.replay.mu.Lock()
	done := s.replay.finished
	s.replay.mu.Unlock()
	if done != nil {
		<-done
	}
}

// FailAudit makes the audit entry's stage ("begin" or "end") fail.
func (s *Server) FailAudit(fail func(stage string) error) { s.auditFail = fail }
