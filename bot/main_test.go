package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun/dialect"

	"shopbot/bot/internal/servetest"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/migrations"
)

func envFunc(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// server is a `shopbot serve` running inside the test. A test whose
// subject is not the first start's loading of the demo shop starts it on
// catalogtest.SQLiteSeededURL, a copy of a database that start would have
// seeded (loading the demo costs seconds under -race); the tests of that
// loading start on an empty file.
type server struct {
	base   string
	stdout *servetest.Buffer
	stderr *servetest.Buffer
	cancel context.CancelFunc
	done   chan error
}

func startServer(t testing.TB, vars map[string]string) *server {
	t.Helper()
	s := launchServer(t, vars, nil)
	s.waitListening(t)
	return s
}

// launchServer runs `shopbot serve` in a goroutine that first waits for
// gate to close (nil: at once), so several can be released together.
func launchServer(t testing.TB, vars map[string]string, gate <-chan struct{}) *server {
	t.Helper()
	vars = maps.Clone(vars)
	vars["HTTP_ADDR"] = "127.0.0.1:0"
	ctx, cancel := context.WithCancel(context.Background())
	s := &server{stdout: &servetest.Buffer{}, stderr: &servetest.Buffer{}, cancel: cancel, done: make(chan error, 1)}
	go func() {
		if gate != nil {
			<-gate
		}
		s.done <- run(ctx, []string{"serve"}, envFunc(vars), nil, s.stdout, s.stderr)
	}()
	t.Cleanup(func() { s.stop(t) })
	return s
}

// waitListening waits until the server prints its address.
func (s *server) waitListening(t testing.TB) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for s.base == "" {
		if m := servetest.AddrRE.FindStringSubmatch(s.stdout.String()); m != nil {
			s.base = "http://" + m[1]
			break
		}
		select {
		case err := <-s.done:
			s.cancel = nil
			t.Fatalf("serve exited early: %v\nstderr: %s", err, s.stderr)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not listen; stdout: %s stderr: %s", s.stdout, s.stderr)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func (s *server) stop(t testing.TB) {
	t.Helper()
	if s.cancel == nil {
		return
	}
	s.cancel()
	s.cancel = nil
	select {
	case err := <-s.done:
		if err != nil {
			t.Errorf("serve returned %v on shutdown", err)
		}
	case <-time.After(20 * time.Second):
		t.Error("serve did not shut down")
	}
}

func (s *server) get(t testing.TB, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(s.base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// waitReady polls /readyz until it answers 200. Startup (migrations,
// the demo shop, the index) takes a second or two; the minute allowed is
// for a CI machine busy with other packages' tests.
func (s *server) waitReady(t testing.TB) {
	t.Helper()
	s.waitReadyWithin(t, time.Minute)
}

func (s *server) waitReadyWithin(t testing.TB, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		code, body := s.get(t, "/readyz")
		if code == http.StatusOK {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz still %d: %s", code, body)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestServeSQLite(t *testing.T) {
	dbURL := "sqlite:" + filepath.Join(t.TempDir(), "shop.db")
	s := startServer(t, map[string]string{"DATABASE_URL": dbURL})
	s.waitReady(t)
	if code, _ := s.get(t, "/healthz"); code != http.StatusOK {
		t.Errorf("/healthz = %d", code)
	}
	if code, home := s.get(t, "/"); code != http.StatusOK || !strings.Contains(home, `href="/admin/"`) || !strings.Contains(home, "Shopbot Demo Shop") {
		t.Errorf("/ = %d:\n%s", code, home)
	}
	if code, tile := s.get(t, "/media/demo-APP-JKT-001.png"); code != http.StatusOK || !strings.HasPrefix(tile, "\x89PNG") {
		t.Errorf("a demo tile = %d", code)
	}
	code, metrics := s.get(t, "/metrics")
	for _, want := range []string{"shopbot_build_info", "shopbot_ready 1", "shopbot_http_requests_total", "go_goroutines", "process_resident_memory_bytes", "go_sql_open_connections"} {
		if code != http.StatusOK || !strings.Contains(metrics, want) {
			t.Errorf("/metrics (%d) lacks %s", code, want)
		}
	}
	out := s.stdout.String()
	for _, want := range []string{"database   sqlite", "demo catalog loaded", "telegram   off (TELEGRAM_BOT_TOKEN unset)", "Ready in"} {
		if !strings.Contains(out, want) {
			t.Errorf("startup output lacks %q:\n%s", want, out)
		}
	}
	s.stop(t)

	// A second start finds the catalog and does not load it again.
	s = startServer(t, map[string]string{"DATABASE_URL": dbURL})
	s.waitReady(t)
	if out := s.stdout.String(); strings.Contains(out, "demo catalog loaded") {
		t.Errorf("second start loaded the demo again:\n%s", out)
	}
}

func TestServePostgres(t *testing.T) {
	dbURL := catalogtest.NewPostgresDatabase(t)
	s := startServer(t, map[string]string{"DATABASE_URL": dbURL})
	s.waitReady(t)
	if out := s.stdout.String(); !strings.Contains(out, "database   postgres") || !strings.Contains(out, "demo catalog loaded") {
		t.Errorf("startup output:\n%s", out)
	}
}

func TestUnreachablePostgres(t *testing.T) {
	s := startServer(t, map[string]string{"DATABASE_URL": "postgres://shop:hunter2@127.0.0.1:1/shop?sslmode=disable"})
	if code, _ := s.get(t, "/healthz"); code != http.StatusOK {
		t.Errorf("/healthz = %d, want 200", code)
	}
	code, body := s.get(t, "/readyz")
	if code != http.StatusServiceUnavailable {
		t.Errorf("/readyz = %d, want 503", code)
	}
	if strings.Contains(body, "hunter2") {
		t.Errorf("/readyz leaks the password: %s", body)
	}
}

func TestConfigErrors(t *testing.T) {
	for name, tc := range map[string]struct {
		args []string
		vars map[string]string
		want string
	}{
		"malformed DATABASE_URL":   {nil, map[string]string{"DATABASE_URL": "mysql://root:hunter2@db/shop"}, "DATABASE_URL must start with postgres:// or sqlite:"},
		"empty sqlite path":        {nil, map[string]string{"DATABASE_URL": "sqlite:"}, "missing file path"},
		"bad HTTP_ADDR":            {nil, map[string]string{"HTTP_ADDR": "8080"}, "HTTP_ADDR"},
		"short ADMIN_PASSWORD":     {nil, map[string]string{"ADMIN_PASSWORD": "hunter2"}, "ADMIN_PASSWORD must be 10 to 72 characters (got 7)"},
		"bad search backend":       {nil, map[string]string{"SEARCH_BACKEND": "solr"}, "SEARCH_BACKEND"},
		"weaviate without URL":     {nil, map[string]string{"SEARCH_BACKEND": "weaviate"}, "WEAVIATE_URL"},
		"bad embeddings":           {nil, map[string]string{"EMBEDDINGS": "bert"}, "EMBEDDINGS"},
		"PUBLIC_URL not a URL":     {nil, map[string]string{"PUBLIC_URL": "shop.example.com"}, "PUBLIC_URL"},
		"PUBLIC_URL with query":    {[]string{"serve", "--public-url", "https://shop.example.com/?a=1"}, nil, "PUBLIC_URL"},
		"PUBLIC_URL with user":     {nil, map[string]string{"PUBLIC_URL": "https://admin:hunter2@shop.example.com"}, "PUBLIC_URL"},
		"TRUSTED_PROXIES a name":   {nil, map[string]string{"TRUSTED_PROXIES": "10.0.0.0/8, proxy.local"}, `TRUSTED_PROXIES: "proxy.local"`},
		"TRUSTED_PROXIES bad mask": {[]string{"serve", "--trusted-proxies", "10.0.0.0/40"}, nil, "TRUSTED_PROXIES"},
		"unknown command":          {[]string{"frobnicate"}, nil, "unknown command"},
		"unknown flag":             {[]string{"serve", "--nope"}, nil, "flag provided but not defined"},
		"import without file":      {[]string{"import"}, nil, "exactly one FILE"},
		"demo-catalog size 0":      {[]string{"demo-catalog", "--size", "0"}, nil, "--size"},
	} {
		t.Run(name, func(t *testing.T) {
			err := run(context.Background(), tc.args, envFunc(tc.vars), nil, io.Discard, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.want)
			}
			if exitCode(err) != 2 {
				t.Errorf("exit code %d, want 2", exitCode(err))
			}
			if strings.Contains(err.Error(), "\n") || strings.Contains(err.Error(), "hunter2") {
				t.Errorf("error must be one line without secrets: %q", err)
			}
		})
	}
}

func TestServeRefusesNewerSchema(t *testing.T) {
	dbURL := "sqlite:" + filepath.Join(t.TempDir(), "shop.db")
	db := catalogtest.SQLiteURL(t, dbURL)
	if _, err := db.Exec("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', CURRENT_TIMESTAMP)"); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"DATABASE_URL": dbURL, "HTTP_ADDR": "127.0.0.1:0"}
	err := run(context.Background(), nil, envFunc(vars), nil, io.Discard, io.Discard)
	if !errors.Is(err, migrations.ErrSchemaTooNew) || exitCode(err) != 1 {
		t.Fatalf("err = %v, want ErrSchemaTooNew", err)
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"serve", "-h"}, {"import", "-h"}, {"demo-catalog", "-h"}} {
		var out, errOut bytes.Buffer
		err := run(context.Background(), args, envFunc(nil), nil, &out, &errOut)
		if exitCode(err) != 0 || out.Len()+errOut.Len() == 0 {
			t.Errorf("%v: exit %d (%v), printed nothing", args, exitCode(err), err)
		}
	}
}

func TestFlagsOverrideEnvironment(t *testing.T) {
	vars := map[string]string{"DATABASE_URL": "postgres://shop:hunter2@db/shop", "HTTP_ADDR": "0.0.0.0:9000"}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	var help bytes.Buffer
	fs.SetOutput(&help)
	cfg, err := loadConfig(fs, []string{"--database-url", "sqlite:x.db"}, envFunc(vars))
	if err != nil || cfg.DatabaseURL != "sqlite:x.db" || cfg.HTTPAddr != "0.0.0.0:9000" {
		t.Fatalf("config = %+v, %v", cfg, err)
	}
	fs.PrintDefaults()
	if strings.Contains(help.String(), "hunter2") {
		t.Errorf("-h output shows the environment's password:\n%s", help.String())
	}
}

func TestMigrateCommand(t *testing.T) {
	vars := map[string]string{"DATABASE_URL": "sqlite:" + filepath.Join(t.TempDir(), "m.db")}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"migrate"}, envFunc(vars), nil, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), []string{"migrate"}, envFunc(vars), nil, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	known := must(migrations.List(dialect.SQLite))
	latest := fmt.Sprint(known[len(known)-1].Version) // versions may have gaps (reserved blocks)
	if got := out.String(); !strings.Contains(got, "migrated from version 0 to "+latest) || !strings.Contains(got, "already at version "+latest) {
		t.Errorf("output:\n%s", got)
	}
}

func TestImportCommand(t *testing.T) {
	dir := t.TempDir()
	dbURL := "sqlite:" + filepath.Join(dir, "shop.db")
	csvPath := filepath.Join(dir, "products.csv")
	os.WriteFile(csvPath, []byte("sku,title,price,stock\nA-1,Apple,1.00,5\nB-1,Banana,one dollar,5\n"), 0o644)
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"import", "--database-url", dbURL, csvPath}, envFunc(nil), nil, &stdout, &stderr)
	if !errors.Is(err, errRowsFailed) || exitCode(err) != 1 {
		t.Fatalf("err = %v, want errRowsFailed", err)
	}
	if !strings.Contains(stdout.String(), "imported 1, updated 0, failed 1") || !strings.Contains(stderr.String(), "line 3 (sku B-1)") {
		t.Errorf("stdout %q, stderr %q", stdout.String(), stderr.String())
	}

	binPath := filepath.Join(dir, "photo.jpg")
	os.WriteFile(binPath, []byte{0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 'J', 'F', 'I', 'F', 0}, 0o644)
	err = run(context.Background(), []string{"import", "--database-url", dbURL, binPath}, envFunc(nil), nil, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "not a CSV or JSONL product file") {
		t.Errorf("binary file: err = %v", err)
	}
}

// TestImportCommandDryRun: --dry-run reads a Shopify export, prints the
// mapping, the first rows and the counts, and writes nothing.
func TestImportCommandDryRun(t *testing.T) {
	dir := t.TempDir()
	dbURL := "sqlite:" + filepath.Join(dir, "shop.db")
	path := filepath.Join(dir, "products_export.csv")
	os.WriteFile(path, []byte("Handle,Title,Body (HTML),Variant SKU,Variant Price,Option1 Name,Option1 Value,Variant Inventory Qty,SEO Title\n"+
		"mug,Mug,<p>Big &amp; blue</p>,MUG-1,9.50,Title,Default Title,4,Mug!\n"+
		"cup,Cup,,CUP-1,free,Title,Default Title,4,Cup!\n"), 0o644)
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"import", "--dry-run", "--database-url", dbURL, path}, envFunc(nil), nil, &stdout, &stderr)
	if !errors.Is(err, errRowsFailed) {
		t.Fatalf("err = %v, want errRowsFailed (a refused row)", err)
	}
	for _, want := range []string{"Shopify product export", "Variant Price", "→ price", "ignored: SEO Title", "line 2: MUG-1 \"Mug\"", "dry run: 1 new, 0 changed, 0 unchanged, 1 refused"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
		}
	}
	if !strings.Contains(stderr.String(), "line 3 (sku CUP-1)") {
		t.Errorf("stderr = %q", stderr.String())
	}
	db, err := openMigrated(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	products, _ := catalog.CountProducts(context.Background(), db)
	jobs, _ := catalog.ListImportJobs(context.Background(), db, 10)
	if products != 0 || len(jobs) != 0 {
		t.Errorf("dry run wrote %d products and %d jobs", products, len(jobs))
	}
}

func TestDemoCatalogRoundTrip(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "synthetic.jsonl")
	if err := run(context.Background(), []string{"demo-catalog", "--size", "250", "-o", out}, envFunc(nil), nil, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	dbURL := "sqlite:" + filepath.Join(dir, "shop.db")
	var stdout bytes.Buffer
	if err := run(context.Background(), []string{"import", out}, envFunc(map[string]string{"DATABASE_URL": dbURL}), nil, &stdout, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "imported 250, updated 0, failed 0") {
		t.Errorf("import output %q", stdout.String())
	}
	db, _, err := catalog.OpenDB(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n, _ := catalog.CountProducts(context.Background(), db); n != 250 {
		t.Errorf("%d products after import, want 250", n)
	}
}

func TestHealthcheckCommand(t *testing.T) {
	s := startServer(t, map[string]string{"DATABASE_URL": catalogtest.SQLiteSeededURL(t)})
	s.waitReady(t)
	vars := map[string]string{"HTTP_ADDR": strings.TrimPrefix(s.base, "http://")}
	for _, args := range [][]string{{"healthcheck"}, {"healthcheck", "--ready"}} {
		if err := run(context.Background(), args, envFunc(vars), nil, io.Discard, io.Discard); err != nil {
			t.Errorf("%v: %v", args, err)
		}
	}
	s.stop(t)
	if err := run(context.Background(), []string{"healthcheck"}, envFunc(vars), nil, io.Discard, io.Discard); err == nil {
		t.Error("healthcheck passed against a stopped server")
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestWebChatThroughServe(t *testing.T) {
	s := startServer(t, map[string]string{"DATABASE_URL": catalogtest.SQLiteSeededURL(t)})
	s.waitReady(t)
	body := `{"session":"0123456789abcdef0123","message":"waterproof jacket under 150"}`
	resp, err := http.Post(s.base+"/api/chat", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Reply string
		Cards []struct {
			SKU   string
			Price int64
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != 200 {
		t.Fatalf("status %d, %v", resp.StatusCode, err)
	}
	if len(out.Cards) == 0 || out.Reply == "" {
		t.Fatalf("reply %q with %d cards", out.Reply, len(out.Cards))
	}
	for _, c := range out.Cards {
		if c.Price > 15000 {
			t.Errorf("card %s at %d breaks the price limit", c.SKU, c.Price)
		}
	}
	if !strings.Contains(s.stdout.String(), "model      offline planner") {
		t.Errorf("startup output:\n%s", s.stdout)
	}

	// The same through the server's middleware as server-sent events.
	req, _ := http.NewRequest(http.MethodPost, s.base+"/api/chat", strings.NewReader(body))
	req.Header.Set("Accept", "text/event-stream")
	sse, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer sse.Body.Close()
	stream, _ := io.ReadAll(sse.Body)
	if sse.Header.Get("Content-Type") != "text/event-stream" || !strings.Contains(string(stream), "event: cards") || !strings.Contains(string(stream), "event: done") {
		t.Errorf("stream %d %q:\n%s", sse.StatusCode, sse.Header.Get("Content-Type"), stream)
	}
}

// TestChatCommandScripted: a shoe asked for by reference ("the first
// one") has sizes, so the chat asks which with a picker whose buttons keep
// the quantity; pressing one (/do) adds that size, and the cart shows it.
func TestChatCommandScripted(t *testing.T) {
	vars := map[string]string{"DATABASE_URL": catalogtest.SQLiteSeededURL(t)}
	in := strings.NewReader("running shoes under 100\nadd 2 of the first one\n/do add|SHO-RUN-001-42|2\ncart\n")
	var out bytes.Buffer
	if err := run(context.Background(), []string{"chat"}, envFunc(vars), in, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	blocks := strings.Split(strings.TrimSpace(out.String()), "\n\n")
	if len(blocks) != 4 {
		t.Fatalf("%d reply blocks, want 4:\n%s", len(blocks), out.String())
	}
	if !strings.Contains(blocks[0], " · $") || !strings.Contains(blocks[0], "/do add|SHO-RUN-001|1") {
		t.Errorf("search:\n%s", blocks[0])
	}
	if !strings.Contains(blocks[1], "Which size") || !strings.Contains(blocks[1], "[42] /do add|SHO-RUN-001-42|2") || strings.Contains(blocks[1], "cart · 2") {
		t.Errorf("no size picker for 2 of SHO-RUN-001:\n%s", blocks[1])
	}
	if !strings.Contains(blocks[3], "cart · 2 item(s)") || !strings.Contains(blocks[3], "(SHO-RUN-001-42)") {
		t.Errorf("cart:\n%s", blocks[3])
	}
}

func TestSearchEvalCommand(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "j.jsonl")
	os.WriteFile(file, []byte(`{"query":"waterproof jacket","filters":{"max_price":150},"relevant":{"APP-JKT-001":3}}
{"query":"snowboard","relevant":{}}
{"query":"broken"
`), 0o644)
	vars := map[string]string{"DATABASE_URL": catalogtest.SQLiteSeededURL(t)}
	var out, errOut bytes.Buffer
	err := run(context.Background(), []string{"search-eval", "--judgments", file, "--verbose"}, envFunc(vars), nil, &out, &errOut)
	if !errors.Is(err, errBadJudgments) || !strings.Contains(errOut.String(), "line 3") {
		t.Fatalf("err = %v, stderr %q", err, errOut.String())
	}
	for _, want := range []string{"ndcg@10 ", "recall@10 ", "mrr ", "zero_results ", "constraint_violations 0", "p50_ms ", "p99_ms ", "queries 2"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
