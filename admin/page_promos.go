package admin

import (
	"net/http"
	"strconv"

	"shopbot/catalog"
)

// promosPage is /admin/promos: every promo code with its rules and how
// often it was used; each can be edited, disabled or enabled.
type promosPage struct {
	Promos []promoRow
}

type promoRow struct {
	catalog.PromoCode
	Discount, Minimum, Window, Limits string
}

func (s *Server) promosList(w http.ResponseWriter, r *http.Request) {
	ps, err := catalog.ListPromos(r.Context(), s.db)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	rows := make([]promoRow, len(ps))
	for i, p := range ps {
		rows[i] = promoRowOf(p)
	}
	s.render(w, r, http.StatusOK, "promos", "Promo codes", "promos", promosPage{Promos: rows})
}

func promoRowOf(p catalog.PromoCode) promoRow {
	row := promoRow{PromoCode: p, Discount: strconv.FormatInt(p.Value, 10) + "%", Window: "always", Limits: "no limit"}
	if p.Kind == catalog.PromoFixed {
		row.Discount = catalog.FormatPrice(p.Value, p.Currency)
	}
	if p.MinSubtotal > 0 {
		row.Minimum = catalog.FormatPrice(p.MinSubtotal, p.Currency)
	}
	switch {
	case p.StartsAt != nil && p.EndsAt != nil:
		row.Window = p.StartsAt.UTC().Format(promoTimeLayout) + " – " + p.EndsAt.UTC().Format(promoTimeLayout)
	case p.StartsAt != nil:
		row.Window = "from " + p.StartsAt.UTC().Format(promoTimeLayout)
	case p.EndsAt != nil:
		row.Window = "until " + p.EndsAt.UTC().Format(promoTimeLayout)
	}
	if p.MaxUses > 0 || p.PerCustomer > 0 {
		row.Limits = ""
		if p.MaxUses > 0 {
			row.Limits = strconv.Itoa(p.MaxUses) + " in all "
		}
		if p.PerCustomer > 0 {
			row.Limits += strconv.Itoa(p.PerCustomer) + " per customer"
		}
	}
	return row
}

// setPromoActive disables or enables a code: a disabled code applies to
// no cart and no order from then on.
func (s *Server) setPromoActive(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		s.renderError(w, r, notFound("Promo code"))
		return
	}
	active := r.FormValue("active") == "1"
	if err := catalog.SetPromoActive(r.Context(), s.db, id, active, s.cfg.Now()); err != nil {
		s.renderError(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "admin: promo code switched", "promo_id", id, "active", active, "user", sessionFrom(r.Context()).Username)
	msg := "Promo code disabled."
	if active {
		msg = "Promo code enabled."
	}
	redirect(w, r, "/admin/promos", msg)
}
