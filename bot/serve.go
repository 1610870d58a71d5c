package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"

	"shopbot/adapters"
	"shopbot/adapters/inbox"
	"shopbot/adapters/web"
	"shopbot/admin"
	"shopbot/catalog"
	"shopbot/catalog/live"
	"shopbot/migrations"
)

// idempotencyTTL is how long the web chat remembers a client's
// Idempotency-Key: a replay within it is answered 409. A day covers any
// client's retries (Stripe keeps keys as long) and keeps the table small.
const idempotencyTTL = 24 * time.Hour

// shutdownTimeout bounds how long in-flight requests may take to finish.
const shutdownTimeout = 15 * time.Second

// serve runs the shop until ctx is cancelled (SIGINT/SIGTERM). HTTP comes up
// first, so /healthz answers while the database is still being prepared;
// /readyz turns 200 once migrations and the demo catalog are in.
func serve(ctx context.Context, e env, args []string) error {
	started := time.Now()
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	cfg, err := loadConfig(fs, args, e.getenv)
	if err != nil {
		return err
	}
	log := e.logger(slog.LevelInfo)
	tr, err := newTracing(ctx, &cfg)
	if err != nil {
		return err
	}
	defer tr.close(log)
	db, info, err := catalog.OpenDB(cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	db = tr.traceDB(db)
	sizePool(db, info, cfg.pool)

	reg, pm := newRegistry(db.DB, info.Kind)
	reg.MustRegister(inbox.NewBacklogCollector(db))
	srch, err := newSearchVia(&cfg, log, reg, tr.transport())
	if err != nil {
		return err
	}
	hub := adapters.NewHub()
	links, payLink := newPaymentLinks(&cfg)
	eng, closeEngine, err := newEngine(&cfg, db, srch, reg, log, hub, tr.provider, payLink)
	if err != nil {
		return err
	}
	defer closeEngine()
	board := newChannelBoard(pm.channelUp, time.Now)
	slk, err := newSlack(ctx, &cfg, db, eng, hub, reg, log, board.receiver("slack"))
	if err != nil {
		return err
	}
	var ready atomic.Bool
	tg, err := newTelegram(&cfg, db, eng, hub, reg, log, board.receiver("telegram"))
	if err != nil {
		return err
	}
	links.use(tg)
	board.add(modelProbe(&cfg, log))
	board.add(telegramProbe(&cfg, tg))
	board.add(slackProbe(&cfg, slk))
	ticker := time.NewTicker(statusEvery)
	defer ticker.Stop()
	checkCtx, stopChecks := context.WithCancel(ctx)
	defer stopChecks()
	checked := board.start(checkCtx, ticker.C) // at once, beside the database's preparation
	// The live panel follows the database, so every replica's panel sees
	// every replica's changes (catalog/live).
	liveHub := live.NewHub(db, log, 0)
	go liveHub.Run(checkCtx)
	adm := admin.New(admin.Config{
		Registry: reg, Live: liveHub,
		Ready: func(ctx context.Context) error { return readiness(ctx, db, ready.Load()) },
		// The merchant panel under /admin/ (admin.go).
		DB: db, Notifier: hub, Search: srch, Settings: shopSettings(&cfg, db), MetricsToken: cfg.MetricsToken, Logger: log,
		PublicURL: cfg.PublicURL, TrustedProxies: cfg.proxies, WidgetOrigins: cfg.webOrigins.List(), Feeds: cfg.feedsOn,
		MCPOn: cfg.mcpOn, UCPOn: cfg.ucpOn,
		Replayer: &adminReplayer{cfg: &cfg, db: db, log: log},
		Channels: board.panel,
		Copilot:  eng, // suggested replies and takeover summaries (admin/copilot.go)
	})
	chat := web.New(eng, log)
	chat.RememberKeys(&catalog.IdempotencyKeys{DB: db, TTL: idempotencyTTL})
	notices := newWebNotices(db, cfg.cover.noticeTTL)
	chat.KeepNotices(notices)
	chat.KeepEvents(webEvents{log: catalog.ChatEvents{DB: db}})
	hub.Shoppers("web", chat)
	shop := shopWindow(&cfg, db, log)
	mux := routes(httpHandlers{
		productPage: shop.Page(), feeds: feedsOf(&cfg, shop),
		admin: adm, webChat: chat, origins: cfg.webOrigins,
		telegram: tg.webhook(&cfg), slack: slk.endpoints(), ready: &ready, status: board,
		mcp:  agentDoor(&cfg, eng, log),
		ucp:  ucpDoor(&cfg, eng, db, log),
		home: web.Home(web.HomeOptions{ShopName: shopNameOf(shopSettings(&cfg, db))}, log),
	})
	ln, err := net.Listen("tcp", cfg.HTTPAddr)
	if err != nil {
		return fmt.Errorf("listen on HTTP_ADDR %s: %w", cfg.HTTPAddr, err)
	}
	srv := newHTTPServer(accessLog(log, tr.provider, adm.Instrument(mux)), log, serverTimeouts)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(e.stdout, "Shopbot %s\n  http       http://%s  (POST /api/chat, /healthz /readyz /statusz /metrics)\n", buildVersion(), ln.Addr())

	owner := &adminStep{password: cfg.AdminPassword}
	loaded, err := prepareWithRetry(ctx, db, log, cfg.demo, owner.ensure)
	if err == nil {
		owner.print(e, ln.Addr()) // before anything else can fail: a generated password is shown once
		err = srch.load(ctx, db, log)
	}
	switch {
	case err == nil:
		waitChecks(ctx, checked)
		took := time.Since(started)
		printReady(ctx, e, db, info, srch, board, loaded, took)
		pm.startSeconds.Set(took.Seconds())
		pm.ready.Set(1)
		slk.resume(ctx, log)
		ready.Store(true)
		botCtx, stopBots := context.WithCancel(ctx)
		tg.start(botCtx, log, board)
		slk.start(botCtx, log, board)
		restockDone := startRestock(botCtx, db, hub, log)
		feedsDone := startFeeds(botCtx, db, &cfg, reg, log)
		prunerDone := notices.pruneNotices(botCtx, log)
		select {
		case <-ctx.Done():
		case err = <-served:
		}
		stopBots()
		tg.wait()
		restockDone()
		feedsDone()
		prunerDone()
	case ctx.Err() != nil:
		err = nil // interrupted while starting: shut down cleanly
	}
	ready.Store(false)
	err = errors.Join(err, shutdown(srv, log))
	slk.wait()
	return err
}

// sizePool applies DB_MAX_CONNS to a Postgres pool (SQLite keeps its own
// size: one writer at a time).
func sizePool(db *bun.DB, info catalog.DBInfo, p dbPool) {
	if info.Kind != "postgres" {
		return
	}
	db.SetMaxOpenConns(p.maxConns)
	db.SetMaxIdleConns(p.maxConns) // as many idle as open (catalog.OpenDB)
}

// httpTimeouts bound what one connection may hold of the server.
type httpTimeouts struct {
	ReadHeader, Read, Write, Idle time.Duration
}

// serverTimeouts: a client has 10 s to send its headers and a minute for
// its body (admin uploads extend their own), a response 2 minutes (the
// web chat's event stream extends its own as events flow), and an idle
// keep-alive connection is closed after 2 minutes. Without them, 200
// connections trickling a byte every 5 s were all still held after 45 s.
var serverTimeouts = httpTimeouts{ReadHeader: 10 * time.Second, Read: time.Minute, Write: 2 * time.Minute, Idle: 2 * time.Minute}

// maxHeaderBytes bounds a request's headers (the default is 1 MB).
const maxHeaderBytes = 64 << 10

// newHTTPServer is the HTTP server of every route.
func newHTTPServer(h http.Handler, log *slog.Logger, t httpTimeouts) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: t.ReadHeader,
		ReadTimeout:       t.Read,
		WriteTimeout:      t.Write,
		IdleTimeout:       t.Idle,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

func shutdown(srv *http.Server, log *slog.Logger) error {
	log.Info("shutting down", "timeout", shutdownTimeout)
	ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}

// readiness is the /readyz check.
func readiness(ctx context.Context, db *bun.DB, started bool) error {
	if !started {
		return errors.New("starting: database not prepared yet")
	}
	if err := db.PingContext(ctx); err != nil {
		return fmt.Errorf("database unreachable: %w", err)
	}
	st, err := migrations.Check(ctx, db)
	if err != nil {
		return err
	}
	if !st.UpToDate() {
		return fmt.Errorf("database schema at version %d, want %d", st.Current, st.Latest)
	}
	return nil
}

// waitChecks waits for the channel checks at start, which run beside the
// database's preparation and take startCheckTimeout at most.
func waitChecks(ctx context.Context, checked <-chan struct{}) {
	select {
	case <-checked:
	case <-ctx.Done():
	}
}

// printReady is the startup banner: the database, search and each
// channel with who the shop is there, or its error in a sentence.
func printReady(ctx context.Context, e env, db *bun.DB, info catalog.DBInfo, srch fmt.Stringer, board *channelBoard, loaded int, took time.Duration) {
	st, _ := migrations.Check(ctx, db)
	n, _ := catalog.CountProducts(ctx, db)
	products := fmt.Sprintf("%d products", n)
	if loaded > 0 {
		products += " (demo catalog loaded)"
	}
	fmt.Fprintf(e.stdout, "  database   %s · schema v%d · %s\n", info, st.Current, products)
	chans := board.snapshot()
	for _, st := range chans {
		if st.Channel == "model" {
			fmt.Fprintf(e.stdout, "  %-10s %s\n", st.Channel, st.bannerLine())
		}
	}
	fmt.Fprintf(e.stdout, "  search     %s\n", srch)
	for _, st := range chans {
		if st.Channel != "model" {
			fmt.Fprintf(e.stdout, "  %-10s %s\n", st.Channel, st.bannerLine())
		}
	}
	fmt.Fprintf(e.stdout, "Ready in %s. Press Ctrl+C to stop.\n", took.Round(time.Millisecond))
}

// whenReady answers 503 until startup has finished, so no shopper talks to
// a half-prepared shop.
func whenReady(ready *atomic.Bool, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !ready.Load() {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte(`{"error":"the shop is starting; try again in a moment"}` + "\n"))
			return
		}
		h.ServeHTTP(w, r)
	})
}
