package admin_test

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/admin"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/team"
)

// staffSession signs a user of the role in without the sign-in form (no
// sign-in limits in the way): a new session row, returned as its cookie
// value and CSRF token.
func staffSession(t *testing.T, db *bun.DB, userID int64) (cookie, csrfToken string) {
	t.Helper()
	tok, csrf := randomHex(), randomHex()
	h := sha256.Sum256([]byte(tok))
	now := time.Now().UTC()
	if err := team.CreateStaffSession(context.Background(), db, &team.StaffSession{TokenHash: hex.EncodeToString(h[:]), UserID: userID,
		CSRFToken: csrf, CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	return tok, csrf
}

func randomHex() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// concretePath fills a route pattern's wildcards with values that name
// nothing, so an admitted action fails harmlessly (404, 400) instead of
// changing the shop.
func concretePath(pattern string) (method, path string) {
	method, path, _ = strings.Cut(pattern, " ")
	r := strings.NewReplacer("{$}", "", "{id}", "999999", "{review}", "999999", "{number}", "Z-999999", "{slug}", "no-such-page", "{label}", "no-such-label")
	return method, r.Replace(path)
}

// TestRouteRoleTable walks the panel's real route table: for every route
// and every role, a request of a signed-in user of that role is refused
// with 403 (and the role named) exactly when the table says the role may
// not use the route. The policy itself is checked too: owners may use
// everything; managers neither settings nor staff; agents change no
// product, order, page, promotion or setting.
func TestRouteRoleTable(t *testing.T) {
	db := catalogtest.SQLiteDemo(t)
	p := newPanel(t, db)
	ctx := context.Background()
	ids := map[team.StaffRole]int64{}
	for _, role := range team.StaffRoles {
		name := "user-" + string(role)
		if err := admin.CreateUserAs(ctx, db, name, testPassword, role); err != nil {
			t.Fatal(err)
		}
		u, err := team.FindStaffUser(ctx, db, name)
		if err != nil {
			t.Fatal(err)
		}
		ids[role] = u.ID
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	table := p.admin.RouteTable()
	if len(table) < 60 {
		t.Fatalf("the route table has %d routes; the panel has more", len(table))
	}
	for _, rt := range table {
		if rt.Public {
			continue
		}
		method, path := concretePath(rt.Pattern)
		if !rt.Allows(team.StaffOwner) {
			t.Errorf("%s: the owner may not use it; owners may use everything", rt.Pattern)
		}
		ownerOnly := strings.HasPrefix(path, "/admin/settings") || strings.HasPrefix(path, "/admin/staff") || path == "/admin/audit" || strings.HasPrefix(path, "/admin/demo")
		if ownerOnly && rt.Allows(team.StaffManager) {
			t.Errorf("%s: a manager may use it; settings and staff are the owner's", rt.Pattern)
		}
		agentMayNot := method == "POST" && !strings.HasPrefix(path, "/admin/conversations/") && path != "/admin/logout"
		if agentMayNot && rt.Allows(team.StaffAgent) {
			t.Errorf("%s: an agent may use it; agents change only conversations", rt.Pattern)
		}
		for _, role := range team.StaffRoles {
			cookie, csrf := staffSession(t, db, ids[role])
			var body io.Reader
			if method == "POST" {
				body = strings.NewReader(url.Values{"csrf": {csrf}}.Encode())
			}
			req, _ := http.NewRequest(method, p.srv.URL+path, body)
			req.AddCookie(&http.Cookie{Name: "shopbot_session", Value: cookie})
			if body != nil {
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			refused := resp.StatusCode == http.StatusForbidden && strings.Contains(string(b), "Your role ("+string(role)+")")
			if refused == rt.Allows(role) {
				t.Errorf("%s %s as %s = %d (refused by role: %v), table allows: %v", method, path, role, resp.StatusCode, refused, rt.Allows(role))
			}
		}
	}
	p.admin.WaitReplay()
	p.admin.WaitImports()
}

// roleClient is a browser signed in (through the sign-in form) as a new
// user of role.
func roleClient(t *testing.T, p *panel, name string, role team.StaffRole) *panel {
	t.Helper()
	if err := admin.CreateUserAs(context.Background(), p.db, name, testPassword, role); err != nil {
		t.Fatal(err)
	}
	q := *p
	q.client = newClient()
	if code, loc, body := q.tryLogin(name, testPassword); code != http.StatusSeeOther || loc != "/admin/" {
		t.Fatalf("%s signs in: %d → %q\n%s", name, code, loc, body)
	}
	_, page := q.get("/admin/conversations")
	m := csrfRE.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no CSRF token for %s", name)
	}
	q.csrf = m[1]
	return &q
}

// An agent's menu shows what they may open, and a refused action
// changes nothing.
func TestAgentMenuAndRefusal(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	f := seed(t, p.db)
	agent := roleClient(t, p, "ann", team.StaffAgent)
	_, page := agent.get("/admin/orders")
	for _, hidden := range []string{`href="/admin/settings"`, `href="/admin/staff"`, `href="/admin/promos"`, `href="/admin/playground"`} {
		if strings.Contains(page, hidden) {
			t.Errorf("the agent's menu links %s", hidden)
		}
	}
	if code, _, _ := agent.post("/admin/orders/"+f.order.Number+"/status", url.Values{"status": {"shipped"}}); code != http.StatusForbidden {
		t.Errorf("agent ships an order = %d, want 403", code)
	}
	if o, _ := catalog.GetOrder(context.Background(), p.db, f.order.Number); o.Status != f.order.Status {
		t.Errorf("a refused status change moved the order to %s", o.Status)
	}
}
