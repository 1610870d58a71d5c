package admin

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"unicode/utf8"

	"shopbot/catalog"
	"shopbot/catalog/team"
)

// The staff roles, as the route table names them.
const (
	roleOwner   = team.StaffOwner
	roleManager = team.StaffManager
	roleAgent   = team.StaffAgent
)

// roles is a set of staff roles.
type roles uint8

func roleBit(r team.StaffRole) roles {
	for i, known := range team.StaffRoles {
		if r == known {
			return 1 << i
		}
	}
	return 0
}

func rolesOf(rs ...team.StaffRole) roles {
	var set roles
	for _, r := range rs {
		set |= roleBit(r)
	}
	return set
}

// allows reports whether r is in the set (an unknown role never is).
func (set roles) allows(r team.StaffRole) bool {
	b := roleBit(r)
	return b != 0 && set&b != 0
}

// routeKind says how a route is guarded.
type routeKind int

const (
	kindPublic routeKind = iota // no session (sign-in, invitations, static files)
	kindPage                    // a session of an admitted role
	kindAction                  // the same plus the session's CSRF token
)

// route is one row of the route table.
type route struct {
	pattern string
	kind    routeKind
	who     roles
	h       http.HandlerFunc
	audit   string   // the audit log's action for a success; "" records nothing
	fields  []string // form fields copied into the audit entry
}

func public(pattern string, h http.HandlerFunc) route {
	return route{pattern: pattern, kind: kindPublic, h: h}
}

func page(pattern string, who roles, h http.HandlerFunc) route {
	return route{pattern: pattern, kind: kindPage, who: who, h: h}
}

func action(pattern string, who roles, h http.HandlerFunc) route {
	return route{pattern: pattern, kind: kindAction, who: who, h: h}
}

// audited makes a successful action write an audit entry named name with
// the given form fields (never a password: see auditDetail).
func (rt route) audited(name string, fields ...string) route {
	rt.audit, rt.fields = name, fields
	return rt
}

// guard wraps a route's handler in its checks: session, CSRF token, role,
// and the audit entry of a successful action.
func (s *Server) guard(rt route) http.HandlerFunc {
	switch rt.kind {
	case kindPage:
		return s.page(s.allow(rt, rt.h))
	case kindAction:
		return s.action(s.allow(rt, s.auditing(rt)))
	}
	return rt.h
}

// allow refuses a signed-in user whose role the route does not admit.
func (s *Server) allow(rt route, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		sess := sessionFrom(r.Context())
		if !rt.who.allows(sess.Role) {
			s.log.WarnContext(r.Context(), "admin route refused for role", "route", rt.pattern, "user", sess.Username, "role", string(sess.Role))
			s.render(w, r, http.StatusForbidden, "error", "Not allowed", "", errorPage{Code: 403,
				Message: "Your role (" + string(sess.Role) + ") cannot use this part of the panel; nothing was changed. Ask the shop's owner if you need it."})
			return
		}
		h(w, r)
	}
}

// statusWriter remembers the status a handler answered with.
type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Flush lets streamed answers through.
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// auditing runs an action's handler between the two halves of its audit
// entry. The entry is written, pending, before the handler runs: if that
// fails the action is refused (503) and changes nothing. After a success
// (an answer below 400) it is confirmed; after a refusal it is dropped.
// A crash, or a failed confirmation, between the change and the
// confirmation leaves the entry pending, shown as unconfirmed: the log is
// at least once. (The entry cannot join the change's transaction: the
// handlers call catalog functions that open their own transactions, one
// or several per action, behind the route table's single wrapper.)
func (s *Server) auditing(rt route) http.HandlerFunc {
	if rt.audit == "" {
		return rt.h
	}
	return func(w http.ResponseWriter, r *http.Request) {
		sess := sessionFrom(r.Context())
		e, err := s.beginAudit(r, sess.UserID, sess.Username, rt.audit, auditSubject(rt.pattern, r), auditDetail(r, rt.fields))
		if err != nil {
			s.log.ErrorContext(r.Context(), "begin audit entry", "action", rt.audit, "err", err)
			s.render(w, r, http.StatusServiceUnavailable, "error", "Not saved", "", errorPage{Code: 503,
				Message: "The change could not be recorded in the audit log, so it was not made. Try again in a moment."})
			return
		}
		sw := &statusWriter{ResponseWriter: w}
		rt.h(sw, r)
		s.endAudit(r, e, sw.code != 0 && sw.code < 400)
	}
}

// recordAudit writes a confirmed audit entry for a change already made
// (an export, which changes nothing, or an invitation's acceptance, made
// before the user it records existed); a failure is logged.
func (s *Server) recordAudit(r *http.Request, userID int64, username, name, subject, detail string) {
	e := s.auditEntry(userID, username, name, subject, detail)
	if err := catalog.RecordAudit(context.WithoutCancel(r.Context()), s.db, e); err != nil {
		s.log.ErrorContext(r.Context(), "record audit entry", "action", name, "err", err)
	}
}

func (s *Server) auditEntry(userID int64, username, name, subject, detail string) *catalog.AuditEntry {
	var uid *int64
	if userID != 0 {
		uid = &userID
	}
	return &catalog.AuditEntry{At: s.cfg.Now(), UserID: uid, Username: username, Action: name, Subject: subject, Detail: detail}
}

// beginAudit writes the pending half of an action's entry.
func (s *Server) beginAudit(r *http.Request, userID int64, username, name, subject, detail string) (*catalog.AuditEntry, error) {
	if err := s.auditFault("begin"); err != nil {
		return nil, err
	}
	e := s.auditEntry(userID, username, name, subject, detail)
	return e, catalog.BeginAudit(r.Context(), s.db, e)
}

// endAudit confirms the entry of a change made, or drops that of a change
// refused. A failure is logged and leaves the entry pending.
func (s *Server) endAudit(r *http.Request, e *catalog.AuditEntry, made bool) {
	ctx := context.WithoutCancel(r.Context()) // the change is made: a client gone must not skip this
	err := s.auditFault("end")
	if err == nil && made {
		err = catalog.ConfirmAudit(ctx, s.db, e.ID)
	} else if err == nil {
		err = catalog.DropAudit(ctx, s.db, e.ID)
	}
	if err != nil {
		s.log.ErrorContext(ctx, "end audit entry (left pending)", "action", e.Action, "id", e.ID, "made", made, "err", err)
	}
}

// auditFault is the failure a test injects at a stage of an audit entry
// ("begin", "end"); nil in production.
func (s *Server) auditFault(stage string) error {
	if s.auditFail == nil {
		return nil
	}
	return s.auditFail(stage)
}

var wildcardRE = regexp.MustCompile(`\{([a-z]+)\}`)

// auditSubject is the route's path values: "A-1001", or "3/17" for a
// review of a product.
func auditSubject(pattern string, r *http.Request) string {
	var parts []string
	for _, m := range wildcardRE.FindAllStringSubmatch(pattern, -1) {
		parts = append(parts, r.PathValue(m[1]))
	}
	return strings.Join(parts, "/")
}

// auditDetail is the named form fields as "name=value" (each value cut
// to 80 characters); empty fields are left out.
func auditDetail(r *http.Request, fields []string) string {
	var parts []string
	for _, f := range fields {
		v := strings.TrimSpace(r.PostFormValue(f))
		if v == "" {
			continue
		}
		if utf8.RuneCountInString(v) > 80 {
			v = string([]rune(v)[:80]) + "…"
		}
		parts = append(parts, f+"="+v)
	}
	return strings.Join(parts, ", ")
}
