package admin_test

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"
	"golang.org/x/crypto/bcrypt"

	"shopbot/admin"
	"shopbot/catalog"
	"shopbot/catalog/demo"
	"shopbot/engine/view"
)

func TestMain(m *testing.M) {
	*admin.BcryptCost = bcrypt.MinCost
	os.Exit(m.Run())
}

const testPassword = "correct horse battery"

// fakeNotifier records the notices the panel sends to shoppers, the way a
// channel adapter registered on adapters.Hub would receive them.
type fakeNotifier struct {
	mu      sync.Mutex
	notices []view.Notice
	err     error
}

func (f *fakeNotifier) Notify(_ context.Context, n view.Notice) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.notices = append(f.notices, n)
	return f.err
}

func (f *fakeNotifier) all() []view.Notice {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]view.Notice(nil), f.notices...)
}

// clock is the panel's adjustable time.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// panel is a signed-out browser in front of a panel on a real listener.
type panel struct {
	t       testing.TB
	db      *bun.DB
	srv     *httptest.Server
	admin   *admin.Server
	handler http.Handler
	notes   *fakeNotifier
	clock   *clock
	client  *http.Client
	csrf    string
	reg     *prometheus.Registry
}

func newPanel(t testing.TB, db *bun.DB) *panel {
	t.Helper()
	return newPanelWith(t, db, nil)
}

// newPanelWith is a panel whose product searches use srch.
func newPanelWith(t testing.TB, db *bun.DB, srch admin.Searcher) *panel {
	t.Helper()
	return newPanelConfig(t, db, func(c *admin.Config) { c.Search = srch })
}

// newPanelConfig is a panel whose configuration configure changes.
func newPanelConfig(t testing.TB, db *bun.DB, configure func(*admin.Config)) *panel {
	t.Helper()
	ctx := context.Background()
	if n, _ := catalog.CountProducts(ctx, db); n == 0 {
		if _, err := demo.Load(ctx, db); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := admin.EnsureAdmin(ctx, db, testPassword); err != nil {
		t.Fatal(err)
	}
	p := &panel{t: t, db: db, notes: &fakeNotifier{}, clock: &clock{now: time.Now().UTC()}, reg: prometheus.NewRegistry()}
	cfg := admin.Config{
		Registry: p.reg, DB: db, Notifier: p.notes, Now: p.clock.Now,
		Settings: catalog.NewSettingsStore(db, catalog.Settings{ShopName: "Test Shop", Currency: "USD", MaxRounds: 5, RateLimit: 20, RateWindow: time.Minute}),
		Ready:    func(context.Context) error { return nil },
	}
	configure(&cfg)
	p.admin = admin.New(cfg)
	p.handler = admin.Handler(p.admin, nil)
	p.srv = httptest.NewServer(p.handler)
	t.Cleanup(p.srv.Close)
	p.client = newClient()
	return p
}

func newClient() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

var csrfRE = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// do sends a request and returns the status, Location and body.
func (p *panel) do(method, path string, form url.Values) (int, string, string) {
	p.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, p.srv.URL+path, body)
	if err != nil {
		p.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := p.client.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Location"), string(b)
}

func (p *panel) get(path string) (int, string) {
	p.t.Helper()
	code, _, body := p.do("GET", path, nil)
	return code, body
}

// post sends a form with the session's CSRF token.
func (p *panel) post(path string, form url.Values) (int, string, string) {
	p.t.Helper()
	if form == nil {
		form = url.Values{}
	}
	if _, ok := form["csrf"]; !ok {
		form.Set("csrf", p.csrf)
	}
	return p.do("POST", path, form)
}

// tryLogin submits the sign-in form.
func (p *panel) tryLogin(user, password string) (int, string, string) {
	p.t.Helper()
	_, page := p.get("/admin/login")
	m := csrfRE.FindStringSubmatch(page)
	if m == nil {
		p.t.Fatalf("no CSRF token on the sign-in page:\n%s", page)
	}
	return p.do("POST", "/admin/login", url.Values{"csrf": {m[1]}, "username": {user}, "password": {password}, "next": {"/admin/"}})
}

// signIn signs in as admin and keeps the session's CSRF token.
func (p *panel) signIn() {
	p.t.Helper()
	code, loc, body := p.tryLogin("admin", testPassword)
	if code != http.StatusSeeOther || loc != "/admin/" {
		p.t.Fatalf("sign-in = %d → %q:\n%s", code, loc, body)
	}
	p.refreshCSRF()
}

func (p *panel) refreshCSRF() {
	p.t.Helper()
	code, page := p.get("/admin/settings")
	m := csrfRE.FindStringSubmatch(page)
	if code != http.StatusOK || m == nil {
		p.t.Fatalf("settings page %d without CSRF token", code)
	}
	p.csrf = m[1]
}

// shopFixture is a shopper on Telegram with a conversation (an XSS
// attempt, a search with its tool call and result, a handoff flag) and an
// order placed from that chat.
type shopFixture struct {
	customer *catalog.Customer
	conv     *catalog.Conversation
	order    *catalog.Order
	sku      string
	stock    int
}

const xss = `<script>alert(1)</script>`

func seed(t testing.TB, db *bun.DB) shopFixture {
	t.Helper()
	ctx := context.Background()
	c, err := catalog.ResolveCustomer(ctx, db, catalog.Identity{Channel: "telegram", PlatformUserID: "4242", DisplayName: "Eve " + xss, Username: "eve"})
	if err != nil {
		t.Fatal(err)
	}
	key := catalog.ConversationKey{Channel: "telegram", ChatID: "4242"}
	conv, err := catalog.OpenConversation(ctx, db, key, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	err = catalog.AppendMessages(ctx, db, conv.ID,
		&catalog.Message{Role: catalog.RoleUser, Content: xss},
		&catalog.Message{Role: catalog.RoleAssistant, ToolCalls: []catalog.ToolCall{{ID: "call_1", Name: "search_products", Arguments: `{"query":"unobtainium boots"}`}},
			Model: "gpt-4o-mini", PromptTokens: 1200, CompletionTokens: 30, LatencyMS: 850},
		&catalog.Message{Role: catalog.RoleTool, ToolCallID: "call_1", ToolName: "search_products", Content: `{"total":0,"products":[]}`, LatencyMS: 3},
		&catalog.Message{Role: catalog.RoleAssistant, Content: "Nothing found " + xss, Model: "gpt-4o-mini", PromptTokens: 1300, CompletionTokens: 20, LatencyMS: 700},
	)
	if err != nil {
		t.Fatal(err)
	}
	if err := catalog.FlagNeedsHuman(ctx, db, conv.ID, "wants to talk to a person"); err != nil {
		t.Fatal(err)
	}
	// The first product in stock that goes into a cart as it is (a parent
	// needs a variant chosen; variants are not listed).
	ps, _, err := catalog.ListProductPage(ctx, db, catalog.ProductList{Stock: catalog.StockIn, Limit: 100, Sort: catalog.SortTitle})
	for len(ps) > 0 && ps[0].HasVariants() {
		ps = ps[1:]
	}
	if err != nil || len(ps) == 0 {
		t.Fatalf("no product without variants in stock: %v", err)
	}
	scope := catalog.PersonalCart(c.ID)
	if _, err := catalog.AddToCart(ctx, db, scope, ps[0].SKU, 2, c.ID); err != nil {
		t.Fatal(err)
	}
	o, err := catalog.PlaceOrder(ctx, db, catalog.OrderRequest{
		IdempotencyKey: "telegram:4242:update-1", Scope: scope, CustomerID: c.ID, Channel: "telegram", ChatID: "4242",
		Contact: catalog.Contact{Name: "Eve", Phone: "+1 555 0100", Address: "1 Main St"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return shopFixture{customer: c, conv: conv, order: o, sku: ps[0].SKU, stock: ps[0].Stock}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
