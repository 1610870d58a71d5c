package admin

import (
	"context"
	"net/http"
	"sync/atomic"

	"github.com/uptrace/bun"
)

// BcryptCost lets tests hash passwords quickly.
var BcryptCost = &bcryptCost

// WaitImports waits for the imports this server runs in the background.
func (s *Server) WaitImports() { s.imports.wg.Wait() }

// CreateUser adds a staff user, as the Staff page does.
func CreateUser(ctx context.Context, db bun.IDB, username, password string) error {
	_, err := createUser(ctx, db, username, password)
	return err
}

// CountPasswordChecks makes s count its password comparisons in n.
func CountPasswordChecks(s *Server, n *atomic.Int32) {
	compare := s.compare
	s.compare = func(hash, password []byte) error {
		n.Add(1)
		return compare(hash, password)
	}
}

// Handler mounts s's handlers for the tests at the paths bot/routes.go
// gives them (that function is in package main, which tests cannot
// import; bot's TestRoutes checks the two agree), with chat, when not nil,
// as the web chat API. Without a database only the probes and metrics are
// mounted.
func Handler(s *Server, chat http.Handler) http.Handler {
	h, mux := s.Handlers(), http.NewServeMux()
	mux.HandleFunc("GET /healthz", h.Healthz)
	mux.HandleFunc("GET /readyz", h.Readyz)
	mux.Handle("GET /metrics", h.Metrics)
	if chat != nil {
		mux.Handle("POST /api/chat", chat)
	}
	if s.db != nil {
		panelRoutes(mux, h)
	}
	return s.Instrument(mux)
}

func panelRoutes(mux *http.ServeMux, h Handlers) {
	mux.Handle("GET /admin/static/", h.Static)
	mux.HandleFunc("GET /media/{name}", h.Media)
	mux.Handle("GET /admin", http.RedirectHandler("/admin/", http.StatusMovedPermanently))
	mux.HandleFunc("GET /admin/login", h.LoginPage)
	mux.HandleFunc("POST /admin/login", h.Login)
	mux.HandleFunc("POST /admin/logout", h.Logout)
	mux.HandleFunc("GET /admin/{$}", h.Dashboard)
	mux.HandleFunc("GET /admin/products", h.Products)
	mux.HandleFunc("GET /admin/products/new", h.NewProduct)
	mux.HandleFunc("POST /admin/products/new", h.CreateProduct)
	mux.HandleFunc("GET /admin/products/{id}", h.EditProduct)
	mux.HandleFunc("POST /admin/products/{id}", h.SaveProduct)
	mux.HandleFunc("POST /admin/products/{id}/archive", h.ArchiveProduct)
	mux.HandleFunc("POST /admin/products/{id}/restore", h.RestoreProduct)
	mux.HandleFunc("GET /admin/products/{id}/reviews", h.ProductReviews)
	mux.HandleFunc("POST /admin/products/{id}/reviews/{review}/hide", h.HideReview)
	mux.HandleFunc("POST /admin/products/{id}/reviews/{review}/show", h.ShowReview)
	mux.HandleFunc("GET /admin/import", h.ImportPage)
	mux.HandleFunc("POST /admin/import", h.StartImport)
	mux.HandleFunc("GET /admin/import/{id}", h.ImportStatus)
	mux.HandleFunc("GET /admin/orders", h.Orders)
	mux.HandleFunc("GET /admin/orders/{number}", h.Order)
	mux.HandleFunc("POST /admin/orders/{number}/status", h.SetOrderStatus)
	mux.HandleFunc("POST /admin/orders/{number}/cancel", h.CancelOrder)
	mux.HandleFunc("POST /admin/orders/{number}/refund", h.RefundOrder)
	mux.HandleFunc("GET /admin/pages", h.Pages)
	mux.HandleFunc("GET /admin/pages/new", h.NewPage)
	mux.HandleFunc("POST /admin/pages/new", h.CreatePage)
	mux.HandleFunc("GET /admin/pages/{slug}", h.EditPage)
	mux.HandleFunc("POST /admin/pages/{slug}", h.SavePage)
	mux.HandleFunc("POST /admin/pages/{slug}/delete", h.DeletePage)
	mux.HandleFunc("GET /admin/promos", h.Promos)
	mux.HandleFunc("GET /admin/promos/new", h.NewPromo)
	mux.HandleFunc("POST /admin/promos/new", h.CreatePromo)
	mux.HandleFunc("GET /admin/promos/{id}", h.EditPromo)
	mux.HandleFunc("POST /admin/promos/{id}", h.SavePromo)
	mux.HandleFunc("POST /admin/promos/{id}/active", h.SetPromoActive)
	mux.HandleFunc("GET /admin/conversations", h.Inbox)
	mux.HandleFunc("GET /admin/conversations/{id}", h.Transcript)
	mux.HandleFunc("POST /admin/conversations/{id}/pause", h.Pause)
	mux.HandleFunc("POST /admin/conversations/{id}/resume", h.Resume)
	mux.HandleFunc("POST /admin/conversations/{id}/reply", h.Reply)
	mux.HandleFunc("GET /admin/playground", h.Playground)
	mux.HandleFunc("GET /admin/playground/trace", h.PlaygroundTrace)
	mux.HandleFunc("GET /admin/playground/scenario", h.PlaygroundScenario)
	mux.HandleFunc("GET /admin/conversations/{id}/replay", h.ReplayConversation)
	mux.HandleFunc("GET /admin/replay", h.ReplayPage)
	mux.HandleFunc("POST /admin/replay", h.StartReplay)
	mux.HandleFunc("GET /admin/settings", h.SettingsPage)
	mux.HandleFunc("POST /admin/settings", h.SaveSettings)
	mux.HandleFunc("POST /admin/staff", h.AddStaff)
	mux.HandleFunc("POST /admin/staff/{id}/delete", h.DeleteStaff)
	mux.HandleFunc("GET /admin/settings/delivery", h.DeliveryPage)
	mux.HandleFunc("POST /admin/settings/delivery", h.CreateDelivery)
	mux.HandleFunc("POST /admin/settings/delivery/country", h.SaveDefaultCountry)
	mux.HandleFunc("POST /admin/settings/delivery/{id}", h.SaveDelivery)
	mux.HandleFunc("POST /admin/settings/delivery/{id}/delete", h.DeleteDelivery)
}

// PageNames lists the page templates (a test renders every one).
func (s *Server) PageNames() []string {
	out := make([]string, 0, len(s.pages))
	for n := range s.pages {
		out = append(out, n)
	}
	return out
}

// WaitReplay waits for the Replay page's batch, if one was started.
func (s *Server) WaitReplay() {
	s.replay.mu.Lock()
	done := s.replay.finished
	s.replay.mu.Unlock()
	if done != nil {
		<-done
	}
}
