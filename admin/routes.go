package admin

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Who may use a route: a set of staff roles (roles.go).
var (
	owners   = rolesOf(roleOwner)
	managers = rolesOf(roleOwner, roleManager)
	staff    = rolesOf(roleOwner, roleManager, roleAgent)
)

// routeTable is the panel's one route table: every route with the roles
// that may use it, checked on the server for every request (a page or
// an action a role may not use answers 403 and changes nothing), and,
// for actions, what a success writes to the audit log. Public routes
// (sign-in, invitations, static files, media) need no session.
func (s *Server) routeTable() []route {
	return []route{
		public("GET /admin/static/", s.static().ServeHTTP),
		public("GET /media/{name}", s.media),
		public("GET /admin", http.RedirectHandler("/admin/", http.StatusMovedPermanently).ServeHTTP),
		public("GET /admin/login", s.headers(s.loginPage)),
		public("POST /admin/login", s.headers(s.login)),
		public("GET /admin/invite/{token}", s.headers(s.invitePage)),
		public("POST /admin/invite/{token}", s.headers(s.acceptInvite)),
		action("POST /admin/logout", staff, s.logout),

		page("GET /admin/{$}", staff, s.dashboard),
		page("GET /admin/demo/remove", owners, s.demoRemovePage),
		action("POST /admin/demo/remove", owners, s.removeDemo).audited("demo.remove"),

		page("GET /admin/products", staff, s.products),
		page("GET /admin/products/new", managers, s.newProduct),
		action("POST /admin/products/new", managers, s.createProduct).audited("product.create", "sku", "title", "price", "stock"),
		page("GET /admin/products/{id}", staff, s.editProduct),
		action("POST /admin/products/{id}", managers, s.saveProduct).audited("product.save", "sku", "title", "price", "stock", "op"),
		action("POST /admin/products/{id}/archive", managers, s.archiveProduct).audited("product.archive"),
		action("POST /admin/products/{id}/restore", managers, s.restoreProduct).audited("product.restore"),
		page("GET /admin/products/{id}/reviews", staff, s.productReviews),
		action("POST /admin/products/{id}/reviews/{review}/hide", managers, s.hideReview).audited("review.hide"),
		action("POST /admin/products/{id}/reviews/{review}/show", managers, s.showReview).audited("review.show"),
		page("GET /admin/import", managers, s.importPage),
		action("POST /admin/import", managers, s.startImport).audited("import.start"),
		action("POST /admin/import/preview", managers, s.previewImport),
		action("POST /admin/import/confirm", managers, s.confirmImport).audited("import.confirm"),
		page("GET /admin/import/{id}", managers, s.importStatus),
		page("GET /admin/import/feeds", managers, s.feedsList),
		action("POST /admin/import/feeds", managers, s.createFeed).audited("feed.create", "url", "every_hours"),
		action("POST /admin/import/feeds/{id}", managers, s.saveFeed).audited("feed.save", "url", "every_hours", "enabled"),
		action("POST /admin/import/feeds/{id}/run", managers, s.runFeedNow).audited("feed.run"),
		action("POST /admin/import/feeds/{id}/delete", managers, s.deleteFeed).audited("feed.delete"),

		page("GET /admin/orders", staff, s.orders),
		page("GET /admin/orders.csv", managers, s.ordersCSV),
		page("GET /admin/orders/{number}", staff, s.order),
		page("GET /admin/orders/{number}/slip", staff, s.orderSlip),
		action("POST /admin/orders/{number}/status", managers, s.setOrderStatus).audited("order.status", "status", "tracking"),
		action("POST /admin/orders/{number}/cancel", managers, s.cancelOrder).audited("order.cancel"),
		action("POST /admin/orders/{number}/refund", managers, s.refundOrder).audited("order.refund"),
		page("GET /admin/returns", staff, s.returnsList),
		action("POST /admin/returns/{id}/status", managers, s.setReturnStatus).audited("return.status", "status", "note"),

		page("GET /admin/customers", staff, s.customers),
		page("GET /admin/customers/{id}", staff, s.customer),
		page("GET /admin/customers/{id}/export", owners, s.exportCustomer),
		action("POST /admin/customers/{id}/forget", owners, s.forgetCustomer).audited("customer.forget"),

		page("GET /admin/pages", managers, s.pagesList),
		page("GET /admin/pages/new", managers, s.newPage),
		action("POST /admin/pages/new", managers, s.createPage).audited("page.create", "slug", "title"),
		page("GET /admin/pages/{slug}", managers, s.editPage),
		action("POST /admin/pages/{slug}", managers, s.savePage).audited("page.save", "slug", "title"),
		action("POST /admin/pages/{slug}/delete", managers, s.deletePage).audited("page.delete"),

		page("GET /admin/promos", managers, s.promosList),
		page("GET /admin/promos/new", managers, s.newPromo),
		action("POST /admin/promos/new", managers, s.createPromo).audited("promo.create", "code", "kind", "value"),
		page("GET /admin/promos/{id}", managers, s.editPromo),
		action("POST /admin/promos/{id}", managers, s.savePromo).audited("promo.save", "code", "kind", "value", "active"),
		action("POST /admin/promos/{id}/active", managers, s.setPromoActive).audited("promo.active", "active"),

		page("GET /admin/conversations", staff, s.inbox),
		page("GET /admin/events", staff, s.events),
		page("GET /admin/conversations/counts", staff, s.inboxCounts),
		page("GET /admin/conversations/{id}", staff, s.transcript),
		action("POST /admin/conversations/{id}/pause", staff, s.pause).audited("takeover.start"),
		action("POST /admin/conversations/{id}/resume", staff, s.resume).audited("takeover.end"),
		action("POST /admin/conversations/{id}/reply", staff, s.reply).audited("takeover.reply"),
		action("POST /admin/conversations/{id}/status", staff, s.setConversationStatus).audited("conversation.status", "status", "until"),
		action("POST /admin/conversations/{id}/assign", staff, s.assignConversation).audited("conversation.assign", "assignee"),
		action("POST /admin/conversations/{id}/labels", staff, s.addConversationLabel).audited("conversation.label", "label"),
		action("POST /admin/conversations/{id}/labels/{label}/delete", staff, s.removeConversationLabel).audited("conversation.unlabel"),
		action("POST /admin/conversations/{id}/notes", staff, s.addConversationNote),
		page("GET /admin/canned", staff, s.cannedPage),
		action("POST /admin/canned", managers, s.saveCanned).audited("canned.save", "shortcut"),
		action("POST /admin/canned/{id}/delete", managers, s.deleteCanned).audited("canned.delete"),
		page("GET /admin/conversations/{id}/replay", managers, s.replayConversation),
		page("GET /admin/replay", managers, s.replayPage),
		action("POST /admin/replay", managers, s.startReplay),

		page("GET /admin/playground", managers, s.playground),
		page("GET /admin/playground/trace", managers, s.playgroundTrace),
		page("GET /admin/playground/scenario", managers, s.playgroundScenario),

		page("GET /admin/team", managers, s.team),
		action("POST /admin/team", owners, s.saveTeam).audited("team.settings", "round_robin", "hours"),
		page("GET /admin/settings", owners, s.settingsPage),
		action("POST /admin/settings", owners, s.saveSettings).audited("settings.save", "shop_name", "currency", "model", "max_rounds", "rate_limit", "rate_window"),
		page("GET /admin/staff", owners, s.staffPage),
		action("POST /admin/staff", owners, s.addStaff).audited("staff.add", "username", "role"),
		action("POST /admin/staff/invite", owners, s.inviteStaff).audited("staff.invite", "role"),
		action("POST /admin/staff/invite/{id}/revoke", owners, s.revokeInvite).audited("staff.invite_revoke"),
		action("POST /admin/staff/{id}/role", owners, s.setStaffRole).audited("staff.role", "role"),
		action("POST /admin/staff/{id}/disable", owners, s.disableStaff).audited("staff.disable"),
		action("POST /admin/staff/{id}/enable", owners, s.enableStaff).audited("staff.enable"),
		action("POST /admin/staff/{id}/delete", owners, s.deleteStaff).audited("staff.delete"),
		page("GET /admin/audit", owners, s.auditPage),
		page("GET /admin/settings/delivery", owners, s.deliveryPage),
		action("POST /admin/settings/delivery", owners, s.saveDelivery).audited("delivery.save", "name", "price", "countries", "active"),
		action("POST /admin/settings/delivery/country", owners, s.saveDefaultCountry).audited("delivery.country", "country"),
		action("POST /admin/settings/delivery/{id}", owners, s.saveDelivery).audited("delivery.save", "name", "price", "countries", "active"),
		action("POST /admin/settings/delivery/{id}/delete", owners, s.deleteDelivery).audited("delivery.delete"),
		page("GET /admin/settings/synonyms", owners, s.synonymsList),
		action("POST /admin/settings/synonyms", owners, s.synonymsPost).audited("synonyms.save", "terms", "delete"),
		page("GET /admin/search-insights", managers, s.searchInsights),
		action("POST /admin/search-insights/pins", managers, s.searchPinPost).audited("search.pin", "query", "sku", "delete"),
	}
}

// Routes mounts the merchant panel on mux from routeTable: pages need a
// signed-in session of a role the route admits (a browser without one is
// sent to sign in), actions the same plus the session's CSRF token. Every
// panel handler carries the security headers. bot/routes.go calls it, and
// the tests mount it the same way.
func (s *Server) Routes(mux *http.ServeMux) {
	for _, rt := range s.routeTable() {
		mux.HandleFunc(rt.pattern, s.guard(rt))
	}
}

// Metrics is the Prometheus registry in the OpenMetrics format, behind
// METRICS_TOKEN when set.
func (s *Server) Metrics() http.Handler {
	return s.metricsAuth(promhttp.HandlerFor(s.reg, promhttp.HandlerOpts{Registry: s.reg, EnableOpenMetrics: true}))
}

// Instrument records every request mux serves in the request metrics, by
// its matched route pattern.
func (s *Server) Instrument(mux *http.ServeMux) http.Handler {
	return s.metrics.instrument(mux)
}
