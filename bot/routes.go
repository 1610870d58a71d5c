package main

import (
	"context"
	"net/http"
	"sync/atomic"

	"shopbot/adapters/web"
	"shopbot/admin"
	"shopbot/catalog"
)

// httpHandlers is what the route table mounts.
type httpHandlers struct {
	// admin serves the probes and metrics, and mounts the merchant
	// panel's own route table.
	admin panel
	// chat is the web chat API; chatNotices its polling endpoint for
	// notices (back in stock, order status), nil to leave it out.
	chat, chatNotices http.Handler
	// webChat, when set, replaces chat and chatNotices: the whole web
	// chat API (history, live events) and /widget.js behind the origin
	// allowlist (webchat.go).
	webChat *web.Chat
	origins *web.Origins
	// telegram receives webhook updates; nil in long-polling mode or
	// without Telegram.
	telegram http.Handler
	// slack are the Events API endpoints; nil in Socket Mode or without
	// Slack.
	slack *slackEndpoints
	// mcp is the door for AI agents (adapters/mcp); nil with MCP=off.
	mcp http.Handler
	// ucp is the UCP profile and checkout sessions (adapters/ucp); nil
	// with UCP=off.
	ucp http.Handler
	// home is the shop's page at /; nil to leave it out.
	home http.Handler
	// productPage serves /products/{sku} and feeds the product feeds
	// (catalog/storefront); nil to leave them out (feeds: FEEDS=off).
	productPage http.Handler
	feeds       *feedEndpoints
	// status answers GET /statusz: each channel as this process sees it.
	status http.Handler
	// ready turns true once startup has finished: shopper traffic (web
	// chat, webhooks) is answered 503 until then, so platforms retry.
	ready *atomic.Bool
}

// panel is the part of admin.Server the route table uses.
type panel interface {
	Healthz(http.ResponseWriter, *http.Request)
	Readyz(http.ResponseWriter, *http.Request)
	Metrics() http.Handler
	Routes(*http.ServeMux)
}

var _ panel = (*admin.Server)(nil)

// feedEndpoints are the product feeds.
type feedEndpoints struct {
	openAIJSON, openAICSV, googleXML http.Handler
}

// slackEndpoints are the HTTP handlers Slack calls.
type slackEndpoints struct {
	events, interactions, commands http.Handler
}

// routes mounts every HTTP route of the server: probes, metrics, web
// chat and platform webhooks here, and the merchant panel through its own
// table (admin.Server.Routes). Webhooks verify their own requests.
func routes(h httpHandlers) *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", h.admin.Healthz)
	mux.HandleFunc("GET /readyz", h.admin.Readyz)
	mux.Handle("GET /metrics", h.admin.Metrics())
	if h.home != nil {
		mux.Handle("GET /{$}", h.home)
	}
	if h.status != nil {
		mux.Handle("GET /statusz", h.status)
	}
	if h.productPage != nil {
		mux.Handle("GET /products/{sku}", h.productPage)
	}
	if h.feeds != nil {
		mux.Handle("GET /feeds/products.json", h.feeds.openAIJSON)
		mux.Handle("GET /feeds/products.csv", h.feeds.openAICSV)
		mux.Handle("GET /feeds/google.xml", h.feeds.googleXML)
	}

	shopper := func(x http.Handler) http.Handler { return whenReady(h.ready, x) }
	if h.webChat != nil {
		webChatRoutes(mux, h.webChat, h.origins, shopper)
	} else {
		mux.Handle("POST /api/chat", shopper(h.chat))
		if h.chatNotices != nil {
			mux.Handle("GET /api/chat/notices", shopper(h.chatNotices))
		}
	}
	if h.mcp != nil { // GET, POST and DELETE of the streamable HTTP transport
		mux.Handle("/mcp", shopper(h.mcp))
	}
	if h.ucp != nil {
		mux.Handle("GET /.well-known/ucp", h.ucp)
		mux.Handle("/ucp/v1/", shopper(h.ucp))
	}
	if h.telegram != nil {
		mux.Handle("POST /telegram/webhook", shopper(h.telegram))
	}
	if h.slack != nil {
		mux.Handle("POST /slack/events", shopper(h.slack.events))
		mux.Handle("POST /slack/interactions", shopper(h.slack.interactions))
		mux.Handle("POST /slack/commands", shopper(h.slack.commands))
	}
	h.admin.Routes(mux)
	return mux
}

// shopNameOf reads the shop's name as the merchant set it, for the home
// page; "" while the database cannot say.
func shopNameOf(st *catalog.SettingsStore) func(context.Context) string {
	return func(ctx context.Context) string {
		s, err := st.Get(ctx)
		if err != nil {
			return ""
		}
		return s.ShopName
	}
}
