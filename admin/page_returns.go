package admin

import (
	"net/http"
	"strconv"
	"strings"

	"shopbot/catalog"
)

// The returns a shopper asked for in the chat (request_return, issue 30):
// /admin/returns lists them by status, the order page shows its own, and
// each moves on by a form (requested → approved | rejected → received →
// refunded | exchanged) carrying the status the page showed, so two staff
// moving one return at once apply once (catalog.SetReturnStatus). Refunded
// refunds the return's units (back to stock, the amount owed recorded);
// the shopper is told in the order's chat.

// returnsListLimit bounds the returns list.
const returnsListLimit = 200

// returnsPage is /admin/returns.
type returnsPage struct {
	Status   string
	Statuses []catalog.ReturnStatus
	Returns  []catalog.OrderReturn
}

func (s *Server) returnsList(w http.ResponseWriter, r *http.Request) {
	p := returnsPage{Status: r.URL.Query().Get("status"), Statuses: catalog.ReturnStatuses}
	var err error
	if p.Returns, err = catalog.ListReturns(r.Context(), s.db, catalog.ReturnStatus(p.Status), returnsListLimit); err != nil {
		s.renderError(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "returns", "Returns", "returns", p)
}

// setReturnStatus is POST /admin/returns/{id}/status: fields status (the
// next), seen (the status the page showed) and note (to the shopper).
func (s *Server) setReturnStatus(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		s.renderError(w, r, badRequest("No such return."))
		return
	}
	note := strings.TrimSpace(r.FormValue("note"))
	if len(note) > catalog.MaxReturnReason {
		s.renderError(w, r, badRequest("The note must be at most %d characters.", catalog.MaxReturnReason))
		return
	}
	ret, applied, err := catalog.SetReturnStatus(r.Context(), s.db, catalog.ReturnChange{
		ID: id, Next: catalog.ReturnStatus(r.FormValue("status")), Seen: catalog.ReturnStatus(r.FormValue("seen")),
		Staff: sessionFrom(r.Context()).Username, Note: note,
	})
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	back := "/admin/orders/" + ret.Order.Number
	if !applied {
		redirect(w, r, back, "This return was already "+string(ret.Status)+"; nothing changed.")
		return
	}
	s.log.InfoContext(r.Context(), "return moved", "order", ret.Order.Number, "return", ret.ID, "status", ret.Status, "user", sessionFrom(r.Context()).Username)
	o, err := catalog.GetOrder(r.Context(), s.db, ret.Order.Number)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	told := "Your " + string(ret.Kind) + " request is " + string(ret.Status) + "."
	if note != "" {
		told += " " + note
	}
	redirect(w, r, back, s.tellShopper(r.Context(), o, told, "Return #"+strconv.FormatInt(ret.ID, 10)+" is "+string(ret.Status)+"."))
}
