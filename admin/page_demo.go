package admin

import (
	"fmt"
	"net/http"

	"shopbot/catalog"
)

// The demo shop: while its data is in the shop (catalog.DemoLoaded) every
// page shows a banner (layout.html) linking to /admin/demo/remove, which
// says what removal deletes and asks for confirmation with a form (no
// script: the panel's CSP allows none inline); its POST removes the demo
// (catalog.RemoveDemo) and the banner goes.

// demoRemovePage is /admin/demo/remove: what removing the demo does.
type demoRemovePage struct {
	Loaded  bool // false once removed (or never loaded): nothing to confirm
	Preview catalog.DemoRemoval
}

func (s *Server) demoRemovePage(w http.ResponseWriter, r *http.Request) {
	st, err := catalog.GetDemoState(r.Context(), s.db)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	p := demoRemovePage{Loaded: st == catalog.DemoLoaded}
	if p.Loaded {
		if p.Preview, err = catalog.PreviewDemoRemoval(r.Context(), s.db); err != nil {
			s.renderError(w, r, err)
			return
		}
	}
	s.render(w, r, http.StatusOK, "demo_remove", "Remove demo data", "dashboard", p)
}

// removeDemo deletes the demo's data; a second time it changes nothing.
func (s *Server) removeDemo(w http.ResponseWriter, r *http.Request) {
	res, err := catalog.RemoveDemo(r.Context(), s.db, s.cfg.Now())
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	s.tree.reset()
	s.log.InfoContext(r.Context(), "admin: demo removed", "user", sessionFrom(r.Context()).Username,
		"listings", res.Listings, "archived", res.Archived, "pages", res.Pages, "delivery_methods", res.Deliveries)
	redirect(w, r, "/admin/", demoRemovedMessage(res))
}

func demoRemovedMessage(r catalog.DemoRemoval) string {
	if !r.Changed() {
		return "Nothing to remove: the demo data is gone already."
	}
	msg := fmt.Sprintf("Removed the demo shop: %d listings, %d reviews, %d pages, %d delivery methods", r.Listings, r.Reviews, r.Pages, r.Deliveries)
	if r.Promos > 0 {
		msg += fmt.Sprintf(", %d promo codes", r.Promos)
	}
	if r.Archived > 0 {
		msg += fmt.Sprintf("; %d listings on orders were archived instead", r.Archived)
	}
	return msg + ". It will not be loaded again."
}
