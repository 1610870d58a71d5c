package admin

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"shopbot/catalog"
)

// promoTimeLayout is how the form writes dates: an <input
// type="datetime-local">, read as UTC.
const promoTimeLayout = "2006-01-02T15:04"

// promoForm is /admin/promos/new and /admin/promos/{id}: the code's rules
// as the form shows them (amounts as decimals of the shop currency).
type promoForm struct {
	ID                             int64
	Code, Kind, Value, MinSubtotal string
	StartsAt, EndsAt               string
	MaxUses, PerCustomer           string
	Active                         bool
	Uses                           int
	Currency                       string
	Categories                     []promoCategory
	Error                          string
}

type promoCategory struct {
	ID       int64
	Path     string
	Selected bool
}

func (s *Server) newPromo(w http.ResponseWriter, r *http.Request) {
	f := promoForm{Kind: string(catalog.PromoPercent), Active: true}
	s.renderPromo(w, r, http.StatusOK, f, nil)
}

func (s *Server) editPromo(w http.ResponseWriter, r *http.Request) {
	p, err := s.promoOf(r)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	s.renderPromo(w, r, http.StatusOK, promoFormOf(p), p.CategoryIDs)
}

func (s *Server) promoOf(r *http.Request) (*catalog.PromoCode, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		return nil, notFound("Promo code")
	}
	p, err := catalog.GetPromoByID(r.Context(), s.db, id)
	if errors.Is(err, catalog.ErrNotFound) {
		return nil, notFound("Promo code")
	}
	return p, err
}

func promoFormOf(p *catalog.PromoCode) promoForm {
	f := promoForm{
		ID: p.ID, Code: p.Code, Kind: string(p.Kind), Value: strconv.FormatInt(p.Value, 10),
		MaxUses: strconv.Itoa(p.MaxUses), PerCustomer: strconv.Itoa(p.PerCustomer),
		Active: p.Active, Uses: p.Uses, Currency: p.Currency,
		MinSubtotal: plainAmount(p.MinSubtotal, p.Currency),
	}
	if p.Kind == catalog.PromoFixed {
		f.Value = plainAmount(p.Value, p.Currency)
	}
	if p.StartsAt != nil {
		f.StartsAt = p.StartsAt.UTC().Format(promoTimeLayout)
	}
	if p.EndsAt != nil {
		f.EndsAt = p.EndsAt.UTC().Format(promoTimeLayout)
	}
	return f
}

// renderPromo shows the form with the category tree, selected marked.
func (s *Server) renderPromo(w http.ResponseWriter, r *http.Request, code int, f promoForm, selected []int64) {
	cats, err := catalog.ListCategories(r.Context(), s.db)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	for _, c := range cats {
		f.Categories = append(f.Categories, promoCategory{ID: c.ID, Path: c.Path, Selected: slices.Contains(selected, c.ID)})
	}
	title := "New promo code"
	if f.ID != 0 {
		title = "Promo code " + f.Code
	}
	s.render(w, r, code, "promo_edit", title, "promos", f)
}

func (s *Server) createPromo(w http.ResponseWriter, r *http.Request) {
	s.writePromo(w, r, nil)
}

func (s *Server) savePromo(w http.ResponseWriter, r *http.Request) {
	p, err := s.promoOf(r)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	s.writePromo(w, r, p)
}

// writePromo saves the form through the catalog; a bad form is shown
// again with the reason, and nothing is written.
func (s *Server) writePromo(w http.ResponseWriter, r *http.Request, old *catalog.PromoCode) {
	st, err := s.settings.Get(r.Context())
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	p, f, err := promoFromForm(r, st.Currency)
	if old != nil {
		p.ID, f.ID, f.Uses = old.ID, old.ID, old.Uses
	}
	if err == nil && old == nil {
		err = catalog.CreatePromo(r.Context(), s.db, p, s.cfg.Now())
	} else if err == nil {
		err = catalog.UpdatePromo(r.Context(), s.db, p, s.cfg.Now())
	}
	if err != nil {
		if !errors.Is(err, catalog.ErrInvalid) && !errors.Is(err, catalog.ErrConflict) {
			s.renderError(w, r, err)
			return
		}
		f.Error = formError(err)
		s.renderPromo(w, r, http.StatusBadRequest, f, p.CategoryIDs)
		return
	}
	s.log.InfoContext(r.Context(), "admin: promo code saved", "promo", p.Code, "user", sessionFrom(r.Context()).Username)
	redirect(w, r, "/admin/promos", "Promo code "+p.Code+" saved.")
}

// formError is a catalog error as the form shows it.
func formError(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "+catalog.ErrInvalid.Error()+": "); i >= 0 {
		return msg[i+len(": "+catalog.ErrInvalid.Error()+": "):]
	}
	return strings.ReplaceAll(msg, "catalog: ", "")
}

// promoFromForm reads the posted form into a code (in currency) and the
// form to show again.
func promoFromForm(r *http.Request, currency string) (*catalog.PromoCode, promoForm, error) {
	f := promoForm{
		Code: strings.TrimSpace(r.FormValue("code")), Kind: r.FormValue("kind"), Value: strings.TrimSpace(r.FormValue("value")),
		MinSubtotal: strings.TrimSpace(r.FormValue("min_subtotal")), StartsAt: r.FormValue("starts_at"), EndsAt: r.FormValue("ends_at"),
		MaxUses: strings.TrimSpace(r.FormValue("max_uses")), PerCustomer: strings.TrimSpace(r.FormValue("per_customer")),
		Active: r.FormValue("active") == "1", Currency: currency,
	}
	p := &catalog.PromoCode{Code: f.Code, Kind: catalog.PromoKind(f.Kind), Currency: currency, Active: f.Active}
	for _, raw := range r.Form["category"] {
		id, err := strconv.ParseInt(raw, 10, 64)
		if err != nil {
			return p, f, fmt.Errorf("%w: unknown category", catalog.ErrInvalid)
		}
		p.CategoryIDs = append(p.CategoryIDs, id)
	}
	var err error
	if p.Kind == catalog.PromoFixed {
		p.Value, err = catalog.ParseAmount(f.Value, currency)
	} else {
		p.Value, err = strconv.ParseInt(f.Value, 10, 64)
	}
	if err != nil {
		return p, f, fmt.Errorf("%w: the discount must be a number", catalog.ErrInvalid)
	}
	if f.MinSubtotal != "" {
		if p.MinSubtotal, err = catalog.ParseAmount(f.MinSubtotal, currency); err != nil {
			return p, f, fmt.Errorf("%w: the minimum subtotal must be an amount such as 50.00", catalog.ErrInvalid)
		}
	}
	if p.MaxUses, err = optionalCount(f.MaxUses); err != nil {
		return p, f, err
	}
	if p.PerCustomer, err = optionalCount(f.PerCustomer); err != nil {
		return p, f, err
	}
	if p.StartsAt, err = optionalTime(f.StartsAt); err != nil {
		return p, f, err
	}
	p.EndsAt, err = optionalTime(f.EndsAt)
	return p, f, err
}

func optionalCount(s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 1_000_000_000 {
		return 0, fmt.Errorf("%w: use limits are whole numbers, 0 for none", catalog.ErrInvalid)
	}
	return n, nil
}

func optionalTime(s string) (*time.Time, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	t, err := time.ParseInLocation(promoTimeLayout, strings.TrimSpace(s), time.UTC)
	if err != nil {
		return nil, fmt.Errorf("%w: dates are YYYY-MM-DDTHH:MM (UTC)", catalog.ErrInvalid)
	}
	return &t, nil
}
