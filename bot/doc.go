// Command shopbot is Shopbot's single binary: the AI shopping assistant for
// Telegram, Slack and the web, its merchant panel, and the tools around them.
//
//	shopbot [serve]              migrate, seed the demo catalog into an empty database, serve HTTP
//	shopbot chat                 talk to the bot in the terminal (scriptable when piped)
//	shopbot migrate              apply database migrations and exit
//	shopbot import FILE          upsert products from CSV or JSONL by SKU (first 1,000 row errors listed; recorded as an import job)
//	shopbot import-pages DIR     create or update shop pages from DIR/*.md by slug (file name; first "# " line the title)
//	shopbot import-reviews FILE  add or update reviews from CSV or JSONL (idempotent; each review one searchable passage)
//	shopbot demo-catalog --size N
//	                             write a synthetic catalog as JSONL for scale tests
//	shopbot search-eval --judgments FILE
//	                             relevance and latency of the configured search
//	shopbot bench                load-test the engine with a built-in scripted model
//	shopbot healthcheck          probe a running server (the Docker HEALTHCHECK)
//	shopbot help                 the commands (commands.go), one line each; 'shopbot COMMAND -h' for one
//	shopbot settings [--markdown] every setting read from the environment (settings.go)
//	shopbot version              the version stamped at build (-ldflags "-X main.version=…"), else the commit
//
// settings.go holds the one list of settings: variable, default, meaning,
// flag, and the commands that read it. Each command reads those settings
// only, and its -h shows its flags and those settings; adding a setting is
// one entry there.
//
// status.go is the channel board: Telegram (getMe), Slack (auth.test) and
// the model (GET /models) are checked at start, at once and for 3 s at
// most beside the database's preparation, then every 5 minutes; adapters
// report each update they receive. The startup banner, GET /statusz (this
// process's view), the panel's Settings page and shopbot_channel_up show
// it. A channel's failure never stops the shop: /readyz is about the shop.
//
// This package is the only place that constructs dependencies: main calls
// run with the process's arguments, environment and standard streams; run
// parses one Config (environment variables, overridden by flags), builds the
// logger, database, metrics registry and servers, and passes them to the New
// functions of the other packages. Nothing else reads the environment.
//
// A start's database work (prepare.go) runs under the migration lock
// (migrations.Setup): migrations, the demo catalog into a shop without
// products, and for serve the admin user. Replicas starting together on one
// database do it once; the others wait for the lock, find it done and start
// as usual (no "demo catalog loaded", no second generated password).
//
// routes.go is the one list of every HTTP route of the process: probes,
// /statusz, /metrics, the web chat API, the Telegram webhook and Slack's Events API
// endpoints (when configured; shopper traffic answers 503 until startup
// has finished); the merchant panel mounts its own table
// (admin.Server.Routes).
//
// The HTTP server bounds every connection (serve.go newHTTPServer):
// headers within 10 s and 64 KB, the body within a minute, the response
// within 2 minutes (the web chat's stream and admin uploads extend their
// own deadlines), idle keep-alives closed after 2 minutes.
package main
