package admin

import (
	"errors"
	"net/http"

	"shopbot/catalog"
)

// slipPage is /admin/orders/{number}/slip: a packing slip to print and put
// in the parcel (ship-to address, lines with quantities, no prices).
type slipPage struct {
	Order   *catalog.Order
	Lines   []slipLine
	Shop    string
	Printed string
}

// slipLine is an order line still to ship: refunded units are not packed.
type slipLine struct {
	SKU, Title, Options string
	Qty                 int
}

func (s *Server) orderSlip(w http.ResponseWriter, r *http.Request) {
	o, err := catalog.GetOrder(r.Context(), s.db, r.PathValue("number"))
	if errors.Is(err, catalog.ErrNotFound) {
		err = notFound("Order")
	}
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	p := slipPage{Order: o, Printed: s.cfg.Now().UTC().Format("2006-01-02")}
	for _, it := range o.Items {
		if n := it.Quantity - it.RefundedQty; n > 0 {
			p.Lines = append(p.Lines, slipLine{SKU: it.SKU, Title: it.Title, Options: catalog.OptionLabel(it.Options, nil), Qty: n})
		}
	}
	if st, err := s.settings.Get(r.Context()); err == nil {
		p.Shop = st.ShopName
	}
	s.render(w, r, http.StatusOK, "order_slip", "Packing slip "+o.Number, "orders", p)
}
