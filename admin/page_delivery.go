package admin

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"shopbot/catalog"
)

// deliveryPage is /admin/settings/delivery: the delivery methods checkout
// offers (name, price, free-over threshold, countries, estimated days,
// pickup, active) and the shop's own country, assumed for an address that
// names none.
type deliveryPage struct {
	Methods        []deliveryForm
	New            deliveryForm
	DefaultCountry string
	Currency       string
	Error          string
}

// deliveryForm is one method as the form shows and posts it; prices are
// decimals in the shop currency.
type deliveryForm struct {
	ID                                                 int64
	Name, Price, FreeOver, Countries, DaysMin, DaysMax string
	Pickup, Active                                     bool
	Position                                           string
}

// FormID is the id of the method's form in the page's table, which the
// row's inputs name (form="…"): a saved method's, or the new one's.
func (f deliveryForm) FormID() string {
	if f.ID == 0 {
		return "new-delivery"
	}
	return "delivery-" + strconv.FormatInt(f.ID, 10)
}

func formOfDelivery(m catalog.DeliveryMethod, currency string) deliveryForm {
	f := deliveryForm{
		ID: m.ID, Name: m.Name, Price: plainAmount(m.Price, currency), Countries: m.Countries,
		DaysMin: strconv.Itoa(m.DaysMin), DaysMax: strconv.Itoa(m.DaysMax), Pickup: m.Pickup, Active: m.Active,
		Position: strconv.Itoa(m.Position),
	}
	if m.FreeOver > 0 {
		f.FreeOver = plainAmount(m.FreeOver, currency)
	}
	return f
}

// plainAmount is an amount as the form's inputs take it back: "12.50".
func plainAmount(amount int64, currency string) string {
	return strings.TrimSuffix(catalog.FormatAmount(amount, currency), " "+currency)
}

func (s *Server) deliveryPage(w http.ResponseWriter, r *http.Request) {
	s.renderDelivery(w, r, http.StatusOK, deliveryPage{New: deliveryForm{Countries: catalog.AnyCountry, Active: true, DaysMin: "1", DaysMax: "3"}})
}

func (s *Server) renderDelivery(w http.ResponseWriter, r *http.Request, code int, p deliveryPage) {
	ctx := r.Context()
	cur, err := s.shopCurrency(r)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	ms, err := catalog.ListDeliveryMethods(ctx, s.db)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	if p.DefaultCountry, err = catalog.DefaultCountry(ctx, s.db); err != nil {
		s.renderError(w, r, err)
		return
	}
	p.Currency, p.Methods = cur, nil
	for _, m := range ms {
		p.Methods = append(p.Methods, formOfDelivery(m, cur))
	}
	s.render(w, r, code, "delivery", "Delivery", "settings", p)
}

func (s *Server) shopCurrency(r *http.Request) (string, error) {
	st, err := s.settings.Get(r.Context())
	if err != nil {
		return "", err
	}
	if st.Currency == "" {
		return "USD", nil
	}
	return st.Currency, nil
}

// saveDelivery creates a method (POST …/delivery) or updates one
// (POST …/delivery/{id}); bad input re-shows the form with the reason and
// changes nothing.
func (s *Server) saveDelivery(w http.ResponseWriter, r *http.Request) {
	f := deliveryForm{
		Name: r.FormValue("name"), Price: r.FormValue("price"), FreeOver: r.FormValue("free_over"),
		Countries: r.FormValue("countries"), DaysMin: r.FormValue("days_min"), DaysMax: r.FormValue("days_max"),
		Pickup: r.FormValue("pickup") != "", Active: r.FormValue("active") != "", Position: r.FormValue("position"),
	}
	if id := r.PathValue("id"); id != "" {
		n, err := strconv.ParseInt(id, 10, 64)
		if err != nil || n <= 0 {
			s.renderError(w, r, notFound("Delivery method"))
			return
		}
		f.ID = n
	}
	cur, err := s.shopCurrency(r)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	m, err := parseDelivery(f, cur)
	if err == nil {
		err = catalog.SaveDeliveryMethod(r.Context(), s.db, &m, s.cfg.Now())
	}
	var ue *userError
	switch {
	case errors.As(err, &ue), errors.Is(err, catalog.ErrInvalid), errors.Is(err, catalog.ErrConflict):
		s.renderDelivery(w, r, http.StatusBadRequest, deliveryPage{New: f, Error: sentence(err)})
		return
	case errors.Is(err, catalog.ErrNotFound):
		s.renderError(w, r, notFound("Delivery method"))
		return
	case err != nil:
		s.renderError(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "admin: delivery method saved", "delivery_method", m.Name, "user", sessionFrom(r.Context()).Username)
	redirect(w, r, "/admin/settings/delivery", "Saved "+m.Name+".")
}

func parseDelivery(f deliveryForm, currency string) (catalog.DeliveryMethod, error) {
	m := catalog.DeliveryMethod{ID: f.ID, Name: f.Name, Countries: f.Countries, Pickup: f.Pickup, Active: f.Active}
	var err error
	if m.Price, err = catalog.ParseAmount(strings.TrimSpace(f.Price), currency); err != nil {
		return m, badRequest("The price must be an amount such as 5.00.")
	}
	if strings.TrimSpace(f.FreeOver) != "" {
		if m.FreeOver, err = catalog.ParseAmount(strings.TrimSpace(f.FreeOver), currency); err != nil {
			return m, badRequest("The free-from subtotal must be an amount such as 50.00, or empty.")
		}
	}
	for _, n := range []struct {
		v   string
		dst *int
	}{{f.DaysMin, &m.DaysMin}, {f.DaysMax, &m.DaysMax}, {f.Position, &m.Position}} {
		v := strings.TrimSpace(n.v)
		if v == "" {
			continue
		}
		if *n.dst, err = strconv.Atoi(v); err != nil {
			return m, badRequest("Days and position must be whole numbers.")
		}
	}
	return m, nil
}

// deleteDelivery removes a method; orders keep its name and price.
func (s *Server) deleteDelivery(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err == nil {
		err = catalog.DeleteDeliveryMethod(r.Context(), s.db, id)
	}
	if err != nil {
		s.renderError(w, r, notFound("Delivery method"))
		return
	}
	redirect(w, r, "/admin/settings/delivery", "Delivery method removed.")
}

// saveDefaultCountry stores the country assumed for addresses naming none.
func (s *Server) saveDefaultCountry(w http.ResponseWriter, r *http.Request) {
	err := catalog.SetDefaultCountry(r.Context(), s.db, r.FormValue("country"), s.cfg.Now())
	if errors.Is(err, catalog.ErrInvalid) {
		s.renderDelivery(w, r, http.StatusBadRequest, deliveryPage{Error: sentence(err)})
		return
	}
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	redirect(w, r, "/admin/settings/delivery", "Shop country saved.")
}
