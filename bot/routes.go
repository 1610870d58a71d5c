package main

import (
	"net/http"
	"sync/atomic"

	"shopbot/admin"
)

// httpHandlers is what the route table mounts.
type httpHandlers struct {
	admin admin.Handlers
	// chat is the web chat API; chatNotices its polling endpoint for
	// notices (back in stock, order status), nil to leave it out.
	chat, chatNotices http.Handler
	// telegram receives webhook updates; nil in long-polling mode or
	// without Telegram.
	telegram http.Handler
	// slack are the Events API endpoints; nil in Socket Mode or without
	// Slack.
	slack *slackEndpoints
	// ready turns true once startup has finished: shopper traffic (web
	// chat, webhooks) is answered 503 until then, so platforms retry.
	ready *atomic.Bool
}

// slackEndpoints are the HTTP handlers Slack calls.
type slackEndpoints struct {
	events, interactions, commands http.Handler
}

// routes is the one list of every HTTP route of the server: probes,
// metrics, web chat, platform webhooks and the merchant panel. admin
// wraps its handlers with sign-in (pages) and sign-in plus CSRF
// (actions); webhooks verify their own requests.
func routes(h httpHandlers) *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", h.admin.Healthz)
	mux.HandleFunc("GET /readyz", h.admin.Readyz)
	mux.Handle("GET /metrics", h.admin.Metrics)

	shopper := func(x http.Handler) http.Handler { return whenReady(h.ready, x) }
	mux.Handle("POST /api/chat", shopper(h.chat))
	if h.chatNotices != nil {
		mux.Handle("GET /api/chat/notices", shopper(h.chatNotices))
	}
	if h.telegram != nil {
		mux.Handle("POST /telegram/webhook", shopper(h.telegram))
	}
	if h.slack != nil {
		mux.Handle("POST /slack/events", shopper(h.slack.events))
		mux.Handle("POST /slack/interactions", shopper(h.slack.interactions))
		mux.Handle("POST /slack/commands", shopper(h.slack.commands))
	}
	adminRoutes(mux, h.admin)
	return mux
}

// adminRoutes are the merchant panel's.
func adminRoutes(mux *http.ServeMux, a admin.Handlers) {
	mux.Handle("GET /admin/static/", a.Static)
	mux.HandleFunc("GET /media/{name}", a.Media)
	mux.Handle("GET /admin", http.RedirectHandler("/admin/", http.StatusMovedPermanently))

	mux.HandleFunc("GET /admin/login", a.LoginPage)
	mux.HandleFunc("POST /admin/login", a.Login)
	mux.HandleFunc("POST /admin/logout", a.Logout)

	mux.HandleFunc("GET /admin/{$}", a.Dashboard)

	mux.HandleFunc("GET /admin/products", a.Products)
	mux.HandleFunc("GET /admin/products/new", a.NewProduct)
	mux.HandleFunc("POST /admin/products/new", a.CreateProduct)
	mux.HandleFunc("GET /admin/products/{id}", a.EditProduct)
	mux.HandleFunc("POST /admin/products/{id}", a.SaveProduct)
	mux.HandleFunc("POST /admin/products/{id}/archive", a.ArchiveProduct)
	mux.HandleFunc("POST /admin/products/{id}/restore", a.RestoreProduct)
	mux.HandleFunc("GET /admin/products/{id}/reviews", a.ProductReviews)
	mux.HandleFunc("POST /admin/products/{id}/reviews/{review}/hide", a.HideReview)
	mux.HandleFunc("POST /admin/products/{id}/reviews/{review}/show", a.ShowReview)
	mux.HandleFunc("GET /admin/import", a.ImportPage)
	mux.HandleFunc("POST /admin/import", a.StartImport)
	mux.HandleFunc("GET /admin/import/{id}", a.ImportStatus)

	mux.HandleFunc("GET /admin/orders", a.Orders)
	mux.HandleFunc("GET /admin/orders/{number}", a.Order)
	mux.HandleFunc("POST /admin/orders/{number}/status", a.SetOrderStatus)
	mux.HandleFunc("POST /admin/orders/{number}/cancel", a.CancelOrder)
	mux.HandleFunc("POST /admin/orders/{number}/refund", a.RefundOrder)

	mux.HandleFunc("GET /admin/pages", a.Pages)
	mux.HandleFunc("GET /admin/pages/new", a.NewPage)
	mux.HandleFunc("POST /admin/pages/new", a.CreatePage)
	mux.HandleFunc("GET /admin/pages/{slug}", a.EditPage)
	mux.HandleFunc("POST /admin/pages/{slug}", a.SavePage)
	mux.HandleFunc("POST /admin/pages/{slug}/delete", a.DeletePage)
	mux.HandleFunc("GET /admin/promos", a.Promos)
	mux.HandleFunc("GET /admin/promos/new", a.NewPromo)
	mux.HandleFunc("POST /admin/promos/new", a.CreatePromo)
	mux.HandleFunc("GET /admin/promos/{id}", a.EditPromo)
	mux.HandleFunc("POST /admin/promos/{id}", a.SavePromo)
	mux.HandleFunc("POST /admin/promos/{id}/active", a.SetPromoActive)

	mux.HandleFunc("GET /admin/conversations", a.Inbox)
	mux.HandleFunc("GET /admin/conversations/{id}", a.Transcript)
	mux.HandleFunc("POST /admin/conversations/{id}/pause", a.Pause)
	mux.HandleFunc("POST /admin/conversations/{id}/resume", a.Resume)
	mux.HandleFunc("POST /admin/conversations/{id}/reply", a.Reply)
	mux.HandleFunc("GET /admin/conversations/{id}/replay", a.ReplayConversation)
	mux.HandleFunc("GET /admin/replay", a.ReplayPage)
	mux.HandleFunc("POST /admin/replay", a.StartReplay)

	mux.HandleFunc("GET /admin/playground", a.Playground)
	mux.HandleFunc("GET /admin/playground/trace", a.PlaygroundTrace)
	mux.HandleFunc("GET /admin/playground/scenario", a.PlaygroundScenario)

	mux.HandleFunc("GET /admin/settings", a.SettingsPage)
	mux.HandleFunc("POST /admin/settings", a.SaveSettings)
	mux.HandleFunc("POST /admin/staff", a.AddStaff)
	mux.HandleFunc("POST /admin/staff/{id}/delete", a.DeleteStaff)
	mux.HandleFunc("GET /admin/settings/delivery", a.DeliveryPage)
	mux.HandleFunc("POST /admin/settings/delivery", a.CreateDelivery)
	mux.HandleFunc("POST /admin/settings/delivery/country", a.SaveDefaultCountry)
	mux.HandleFunc("POST /admin/settings/delivery/{id}", a.SaveDelivery)
	mux.HandleFunc("POST /admin/settings/delivery/{id}/delete", a.DeleteDelivery)
}
