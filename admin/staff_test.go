package admin_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/team"
)

var inviteLinkRE = regexp.MustCompile(`value="(http://[^"]+/admin/invite/([^"]+))"`)

// invite makes an invitation link as the owner and returns its path.
func invite(t *testing.T, p *panel, role string) string {
	t.Helper()
	code, _, body := p.post("/admin/staff/invite", url.Values{"role": {role}})
	m := inviteLinkRE.FindStringSubmatch(body)
	if code != http.StatusOK || m == nil {
		t.Fatalf("invite = %d without a link:\n%s", code, body)
	}
	if _, page := p.get("/admin/staff"); strings.Contains(page, m[2]) {
		t.Fatal("the invitation link shows again on the staff page; it must be shown once")
	}
	return "/admin/invite/" + m[2]
}

// join opens an invitation link in a new browser and submits the form.
func join(t *testing.T, p *panel, link, user string) (*panel, int, string) {
	t.Helper()
	q := *p
	q.client = newClient()
	code, page := q.get(link)
	m := csrfRE.FindStringSubmatch(page)
	if code != http.StatusOK || m == nil {
		return &q, code, page
	}
	code, loc, body := q.do("POST", link, url.Values{"csrf": {m[1]}, "username": {user}, "password": {"a long enough password"}})
	if code == http.StatusSeeOther {
		return &q, code, loc
	}
	return &q, code, body
}

// TestInvitations: an owner's link signs up one person once with the
// link's role; a reused, expired or revoked link is refused (410) and
// creates no one; a disabled user is signed out and cannot sign in; the
// link is stored hashed.
func TestInvitations(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	p.signIn()
	ctx := context.Background()
	link := invite(t, p, "manager")
	var stored int
	p.db.NewRaw("SELECT count(*) FROM staff_invites WHERE token_hash = ?", strings.TrimPrefix(link, "/admin/invite/")).Scan(ctx, &stored)
	if stored != 0 {
		t.Error("the invitation token is stored as it is, not hashed")
	}
	meg, code, loc := join(t, p, link, "meg")
	if code != http.StatusSeeOther || loc != "/admin/" {
		t.Fatalf("join = %d → %q", code, loc)
	}
	if code, _ := meg.get("/admin/promos"); code != http.StatusOK {
		t.Errorf("the invited manager opens promos = %d", code)
	}
	if code, _ := meg.get("/admin/settings"); code != http.StatusForbidden {
		t.Errorf("the invited manager opens settings = %d, want 403", code)
	}
	if _, code, _ := join(t, p, link, "meg2"); code != http.StatusGone {
		t.Errorf("reused link = %d, want 410", code)
	}
	late := invite(t, p, "agent")
	p.clock.add(72 * time.Hour)
	if _, code, _ := join(t, p, late, "late"); code != http.StatusGone {
		t.Errorf("expired link = %d, want 410", code)
	}
	p.clock.add(-72 * time.Hour)
	bad := invite(t, p, "agent")
	if _, code, _ := join(t, p, bad, "meg"); code != http.StatusConflict {
		t.Errorf("taken name = %d, want 409", code)
	}
	if code, _, _ := p.post("/admin/staff/invite", url.Values{"role": {"emperor"}}); code != http.StatusBadRequest {
		t.Errorf("unknown role = %d, want 400", code)
	}
	invs, _ := team.ListStaffInvites(ctx, p.db, p.clock.Now())
	for _, inv := range invs {
		if code, _, _ := p.post("/admin/staff/invite/"+itoa(inv.ID)+"/revoke", nil); code != http.StatusSeeOther {
			t.Errorf("revoke = %d", code)
		}
	}
	if _, code, _ := join(t, p, bad, "rev"); code != http.StatusGone {
		t.Errorf("revoked link = %d, want 410", code)
	}
	for _, name := range []string{"meg2", "late", "rev"} {
		if _, err := team.FindStaffUser(ctx, p.db, name); err == nil {
			t.Errorf("a refused link created %s", name)
		}
	}

	u, _ := team.FindStaffUser(ctx, p.db, "meg")
	if code, _, _ := p.post("/admin/staff/"+itoa(u.ID)+"/disable", nil); code != http.StatusSeeOther {
		t.Fatalf("disable = %d", code)
	}
	if code, _ := meg.get("/admin/"); code != http.StatusSeeOther {
		t.Errorf("a disabled user's session still works: %d", code)
	}
	if code, _, body := meg.tryLogin("meg", "a long enough password"); code != http.StatusForbidden || !strings.Contains(body, "disabled") {
		t.Errorf("a disabled user signs in: %d", code)
	}
	if code, _, _ := p.post("/admin/staff/"+itoa(u.ID)+"/enable", nil); code != http.StatusSeeOther {
		t.Fatalf("enable = %d", code)
	}
	if u, _ := team.FindStaffUser(ctx, p.db, "meg"); u.Disabled() {
		t.Error("meg is still disabled after enable")
	}
	admin, _ := team.FindStaffUser(ctx, p.db, "admin")
	if admin.Role != team.StaffOwner {
		t.Errorf("the ADMIN_PASSWORD user is %s, want owner", admin.Role)
	}
	for _, path := range []string{"/admin/staff/" + itoa(admin.ID) + "/disable", "/admin/staff/" + itoa(admin.ID) + "/role"} {
		if code, _, _ := p.post(path, url.Values{"role": {"agent"}}); code != http.StatusBadRequest {
			t.Errorf("%s on yourself = %d, want 400", path, code)
		}
	}
	if code, _, _ := p.post("/admin/staff/"+itoa(u.ID)+"/role", url.Values{"role": {"agent"}}); code != http.StatusSeeOther {
		t.Errorf("make meg an agent = %d", code)
	}
	cookie, _ := staffSession(t, p.db, u.ID)
	req, _ := http.NewRequest("GET", p.srv.URL+"/admin/promos", nil)
	req.AddCookie(&http.Cookie{Name: "shopbot_session", Value: cookie})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("meg, now an agent, opens promos = %d, want 403", resp.StatusCode)
	}
}

// TestAuditEntries: changes to products, prices and stock, order status,
// refunds, settings, staff, takeovers and pages each leave an entry
// naming who did it; a refused change leaves none; the log shows in the
// panel, filtered.
func TestAuditEntries(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	f := seed(t, p.db)
	p.signIn()
	ctx := context.Background()
	mgr := roleClient(t, p, "max", team.StaffManager)
	agent := roleClient(t, p, "ann", team.StaffAgent)

	if code, _, body := mgr.post("/admin/orders/"+f.order.Number+"/status", url.Values{"status": {"paid"}}); code != http.StatusSeeOther {
		t.Fatalf("status = %d\n%s", code, body)
	}
	if code, _, _ := agent.post("/admin/orders/"+f.order.Number+"/status", url.Values{"status": {"shipped"}}); code != http.StatusForbidden {
		t.Errorf("agent status = %d", code)
	}
	if code, _, _ := agent.post("/admin/conversations/"+itoa(f.conv.ID)+"/pause", nil); code != http.StatusSeeOther {
		t.Errorf("agent takeover = %d", code)
	}
	if code, _, _ := p.post("/admin/pages/new", pageForm("gift-cards", "Gift cards", "Gift cards never expire.")); code != http.StatusSeeOther {
		t.Errorf("page = %d", code)
	}
	if code, _, _ := p.post("/admin/staff", url.Values{"username": {"zoe"}, "password": {"zoe's long password"}, "role": {"manager"}}); code != http.StatusSeeOther {
		t.Errorf("staff add = %d", code)
	}
	if code, _, _ := p.post("/admin/staff", url.Values{"username": {"zoe"}, "password": {"short"}}); code != http.StatusBadRequest {
		t.Errorf("bad staff add = %d", code)
	}
	es, err := catalog.ListAudit(ctx, p.db, catalog.AuditFilter{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]catalog.AuditEntry{}
	for _, e := range es {
		if _, dup := got[e.Action]; dup {
			t.Errorf("two entries for %s: a refused change was recorded", e.Action)
		}
		got[e.Action] = e
	}
	want := map[string]string{"order.status": "max", "takeover.start": "ann", "page.create": "admin", "staff.add": "admin"}
	for action, who := range want {
		if e, ok := got[action]; !ok || e.Username != who {
			t.Errorf("%s entry = %+v, want one by %s", action, e, who)
		}
	}
	if e := got["order.status"]; e.Subject != f.order.Number || e.Detail != "status=paid" {
		t.Errorf("order entry = %q %q", e.Subject, e.Detail)
	}
	if e := got["staff.add"]; strings.Contains(e.Detail, "password") || e.Detail != "username=zoe, role=manager" {
		t.Errorf("staff entry detail = %q", e.Detail)
	}
	if len(es) != len(want) {
		t.Errorf("%d entries, want %d: %+v", len(es), len(want), es)
	}
	_, page := p.get("/admin/audit?action=order.")
	if !strings.Contains(page, "order.status") || strings.Contains(page, "page.create") {
		t.Errorf("the audit page filtered by order. does not show just the order change")
	}
	if code, _ := mgr.get("/admin/audit"); code != http.StatusForbidden {
		t.Errorf("a manager opens the audit log = %d, want 403", code)
	}
}
