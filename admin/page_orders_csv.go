package admin

import (
	"encoding/csv"
	"net/http"
	"strconv"
	"strings"
	"time"

	"shopbot/catalog"
)

// ordersCSVMax bounds one export (the filters narrow a bigger one).
const ordersCSVMax = 100_000

var ordersCSVHeader = []string{"number", "placed_at", "status", "channel", "customer_id", "contact_name", "phone", "email",
	"shipping_address", "delivery_method", "promo_code", "items", "units", "total", "currency"}

// ordersCSV is /admin/orders.csv: the orders the list's filters select,
// every page of them, as CSV. A cell that a spreadsheet would read as a
// formula (starting with = + - @, a tab or a carriage return) is
// neutralised with a leading apostrophe.
func (s *Server) ordersCSV(w http.ResponseWriter, r *http.Request) {
	p, l := orderFilter(r.URL.Query())
	if p.Error != "" {
		s.renderError(w, r, badRequest("%s", p.Error))
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="orders-`+s.cfg.Now().UTC().Format("2006-01-02")+`.csv"`)
	w.Header().Set("Cache-Control", "no-store")
	cw := csv.NewWriter(w)
	_ = cw.Write(ordersCSVHeader)
	l.Limit = 500
	for n := 0; n < ordersCSVMax; {
		orders, next, err := catalog.ListOrderPage(r.Context(), s.db, l)
		if err != nil {
			// The header is sent: end the file where it broke and log why.
			s.log.ErrorContext(r.Context(), "orders CSV export", "err", err)
			break
		}
		for _, o := range orders {
			_ = cw.Write(safeCells(orderRow(o)))
		}
		n += len(orders)
		if next == 0 {
			break
		}
		l.AfterID = next
	}
	cw.Flush()
}

func orderRow(o catalog.Order) []string {
	return []string{o.Number, o.CreatedAt.UTC().Format(time.RFC3339), string(o.Status), o.Channel, strconv.FormatInt(o.CustomerID, 10),
		o.ContactName, o.Phone, o.Email, o.ShippingAddress, o.DeliveryMethod, o.PromoCode,
		strconv.Itoa(o.LineCount), strconv.Itoa(o.UnitCount), catalog.FormatAmount(o.Total, o.Currency), o.Currency}
}

// safeCells neutralises cells a spreadsheet would run as formulas.
func safeCells(row []string) []string {
	for i, c := range row {
		if c != "" && strings.ContainsRune("=+-@\t\r", rune(c[0])) {
			row[i] = "'" + c
		}
	}
	return row
}
