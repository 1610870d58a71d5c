package admin

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Handlers are the server's HTTP handlers, each already wrapped with what
// it needs: Page ones with a signed-in session (a browser without one is
// sent to sign in), Action ones with a session and its CSRF token, every
// panel one with the security headers. bot/routes.go gives them their
// paths; admin declares none.
type Handlers struct {
	Healthz, Readyz http.HandlerFunc
	// Metrics is the Prometheus registry, behind METRICS_TOKEN when set.
	Metrics http.Handler
	// Static is the embedded CSS and scripts, served under /admin/static/.
	Static http.Handler
	Media  http.HandlerFunc

	LoginPage, Login, Logout http.HandlerFunc

	Dashboard http.HandlerFunc

	Products, NewProduct, CreateProduct, EditProduct, SaveProduct, ArchiveProduct, RestoreProduct http.HandlerFunc
	ImportPage, StartImport, ImportStatus                                                         http.HandlerFunc
	ProductReviews, HideReview, ShowReview                                                        http.HandlerFunc

	Orders, Order, SetOrderStatus http.HandlerFunc
	CancelOrder, RefundOrder      http.HandlerFunc

	Pages, NewPage, CreatePage, EditPage, SavePage, DeletePage http.HandlerFunc

	Promos, NewPromo, CreatePromo, EditPromo, SavePromo, SetPromoActive http.HandlerFunc

	Inbox, Transcript, Pause, Resume, Reply http.HandlerFunc

	Playground, PlaygroundTrace, PlaygroundScenario http.HandlerFunc

	ReplayPage, StartReplay, ReplayConversation http.HandlerFunc

	SettingsPage, SaveSettings, AddStaff, DeleteStaff http.HandlerFunc

	DeliveryPage, CreateDelivery, SaveDelivery, DeleteDelivery, SaveDefaultCountry http.HandlerFunc
}

// Handlers returns the server's handlers for the route table.
func (s *Server) Handlers() Handlers {
	page, action := s.page, s.action
	return Handlers{
		Healthz: s.healthz,
		Readyz:  s.readyz,
		Metrics: s.metricsAuth(promhttp.HandlerFor(s.reg, promhttp.HandlerOpts{Registry: s.reg, EnableOpenMetrics: true})),
		Static:  s.static(),
		Media:   s.media,

		LoginPage: s.headers(s.loginPage),
		Login:     s.headers(s.withForm(s.login)),
		Logout:    action(s.logout),

		Dashboard: page(s.dashboard),

		Products:       page(s.products),
		NewProduct:     page(s.newProduct),
		CreateProduct:  action(s.createProduct),
		EditProduct:    page(s.editProduct),
		SaveProduct:    action(s.saveProduct),
		ArchiveProduct: action(s.archiveProduct),
		RestoreProduct: action(s.restoreProduct),
		ImportPage:     page(s.importPage),
		StartImport:    action(s.startImport),
		ImportStatus:   page(s.importStatus),
		ProductReviews: page(s.productReviews),
		HideReview:     action(s.hideReview),
		ShowReview:     action(s.showReview),

		Orders:         page(s.orders),
		Order:          page(s.order),
		SetOrderStatus: action(s.setOrderStatus),
		CancelOrder:    action(s.cancelOrder),
		RefundOrder:    action(s.refundOrder),

		Pages:      page(s.pagesList),
		NewPage:    page(s.newPage),
		CreatePage: action(s.createPage),
		EditPage:   page(s.editPage),
		SavePage:   action(s.savePage),
		DeletePage: action(s.deletePage),

		Promos:         page(s.promosList),
		NewPromo:       page(s.newPromo),
		CreatePromo:    action(s.createPromo),
		EditPromo:      page(s.editPromo),
		SavePromo:      action(s.savePromo),
		SetPromoActive: action(s.setPromoActive),

		Inbox:      page(s.inbox),
		Transcript: page(s.transcript),
		Pause:      action(s.pause),
		Resume:     action(s.resume),
		Reply:      action(s.reply),

		Playground:         page(s.playground),
		PlaygroundTrace:    page(s.playgroundTrace),
		PlaygroundScenario: page(s.playgroundScenario),

		ReplayPage:         page(s.replayPage),
		StartReplay:        action(s.startReplay),
		ReplayConversation: page(s.replayConversation),

		SettingsPage: page(s.settingsPage),
		SaveSettings: action(s.saveSettings),
		AddStaff:     action(s.addStaff),
		DeleteStaff:  action(s.deleteStaff),

		DeliveryPage:       page(s.deliveryPage),
		CreateDelivery:     action(s.saveDelivery),
		SaveDelivery:       action(s.saveDelivery),
		DeleteDelivery:     action(s.deleteDelivery),
		SaveDefaultCountry: action(s.saveDefaultCountry),
	}
}

// Instrument records every request mux serves in the request metrics, by
// its matched route pattern.
func (s *Server) Instrument(mux *http.ServeMux) http.Handler {
	return s.metrics.instrument(mux)
}
