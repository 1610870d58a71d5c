package servetest

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/demo"
)

// TelegramToken is the fake Bot API's token, shaped like a real one.
const TelegramToken = "4242:AAserve-test-token_0123456789abcdefgh"

var (
	// AddrRE matches the address the banner prints; the first group is
	// host:port.
	AddrRE = regexp.MustCompile(`http://(127\.0\.0\.1:\d+)`)
	// GeneratedRE matches the banner's generated admin password; the
	// first group is the password.
	GeneratedRE = regexp.MustCompile(`user admin, password (\S+) \(generated`)
)

// Buffer is a bytes.Buffer safe for a writer (the server, an output
// copier) and the test reading it.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// OpenDB opens the database at url, closed at the end of the test.
func OpenDB(t testing.TB, url string) *bun.DB {
	t.Helper()
	db, _, err := catalog.OpenDB(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// CountOutputs counts the startup outputs that contain want.
func CountOutputs(outs []string, want string) int {
	n := 0
	for _, out := range outs {
		if strings.Contains(out, want) {
			n++
		}
	}
	return n
}

// CheckLoadedOnce: the database holds one demo catalog (products,
// reviews) and one admin user.
func CheckLoadedOnce(t testing.TB, db *bun.DB) {
	t.Helper()
	ctx := context.Background()
	ps, err := demo.Products()
	if err != nil {
		t.Fatal(err)
	}
	var wantReviews int64
	for _, p := range ps {
		wantReviews += int64(len(p.Reviews))
	}
	products, err := catalog.CountProducts(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	reviews, err := db.NewSelect().Table("reviews").Count(ctx)
	if err != nil {
		t.Fatal(err)
	}
	admins, err := db.NewSelect().Table("staff_users").Where("username = ?", "admin").Count(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if products != len(ps) || reviews != wantReviews || admins != 1 {
		t.Errorf("%d products, %d reviews, %d admin users; want %d, %d, 1", products, reviews, admins, len(ps), wantReviews)
	}
}

// CheckStartOutputs: of the replicas whose startup outputs are outs,
// exactly one loaded the demo and (without ADMIN_PASSWORD) generated the
// password; the others say they found them; all printed Ready.
func CheckStartOutputs(t testing.TB, outs []string, password string) {
	t.Helper()
	if n := CountOutputs(outs, "(demo catalog loaded)"); n != 1 {
		t.Errorf("%d replicas say they loaded the demo catalog, want 1", n)
	}
	if n := CountOutputs(outs, "Ready in"); n != len(outs) {
		t.Errorf("%d of %d replicas printed Ready", n, len(outs))
	}
	if password != "" {
		if n := CountOutputs(outs, "password from ADMIN_PASSWORD"); n != len(outs) {
			t.Errorf("%d of %d replicas say the password is ADMIN_PASSWORD's", n, len(outs))
		}
		return
	}
	if n := CountOutputs(outs, "(generated;"); n != 1 {
		t.Errorf("%d replicas generated an admin password, want 1", n)
	}
	if n := CountOutputs(outs, "password printed at first start"); n != len(outs)-1 {
		t.Errorf("%d replicas say the password was printed at first start, want %d", n, len(outs)-1)
	}
}

// GeneratedPassword is the password the one generating replica printed.
func GeneratedPassword(t testing.TB, outs []string) string {
	t.Helper()
	for _, out := range outs {
		if m := GeneratedRE.FindStringSubmatch(out); m != nil {
			return m[1]
		}
	}
	t.Fatal("no replica printed a generated password")
	return ""
}

var csrfRE = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// SignIn signs in to the admin panel at base, expects the dashboard, and
// returns the signed-in client.
func SignIn(t testing.TB, base, user, password string) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	resp, err := c.PostForm(base+"/admin/login", url.Values{"csrf": {FormToken(t, c, base+"/admin/login")}, "username": {user}, "password": {password}})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "Conversations per day") {
		t.Fatalf("sign-in as %s = %d, not the dashboard", user, resp.StatusCode)
	}
	return c
}

// FormToken opens the page at pageURL with c and returns its form token.
func FormToken(t testing.TB, c *http.Client, pageURL string) string {
	t.Helper()
	resp, err := c.Get(pageURL)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	tok := csrfRE.FindSubmatch(page)
	if tok == nil {
		t.Fatalf("%s (%d) has no form token:\n%s", pageURL, resp.StatusCode, page)
	}
	return string(tok[1])
}
