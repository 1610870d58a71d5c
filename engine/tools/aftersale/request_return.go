package aftersale

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"shopbot/catalog"
	"shopbot/engine/session"
	"shopbot/engine/toolkit"
	"shopbot/engine/view"
)

// returnRequester is the write request_return makes.
type returnRequester interface {
	RequestOwnReturn(ctx context.Context, req catalog.ReturnRequest) (applied bool, err error)
}

// returnReader reads an order's returns (toolkit.Store has it).
type returnReader interface {
	OrderReturns(ctx context.Context, orderID int64) ([]catalog.OrderReturn, error)
}

type requestReturnArgs struct {
	OrderNumber string `json:"order_number"`
	Kind        string `json:"kind"`
	Reason      string `json:"reason"`
	Items       []struct {
		SKU      string `json:"sku"`
		Quantity int    `json:"qty"`
	} `json:"items"`
	Confirm bool `json:"confirm"`
}

// ReturnTool is request_return: send back (return) or swap (exchange)
// units of a delivered order, with a reason; no items asks back every
// unit left. Statuses: "confirm" (nothing written, with the deadline),
// "requested" (the return as recorded), "not_delivered", "window_closed";
// "returns" lists the order's returns and their statuses either way, so
// the same tool without confirm answers "where is my return".
func ReturnTool(d Deps) toolkit.Tool {
	return toolkit.Tool{
		Name:        "request_return",
		Description: "Return or exchange a delivered order's items (none: all), or list its returns; confirm after the shopper's yes.",
		Schema: toolkit.Object(map[string]any{
			"order_number": plainStr(20),
			"kind":         map[string]any{"enum": []string{string(catalog.ReturnMoneyBack), string(catalog.ReturnExchange)}},
			"reason":       plainStr(catalog.MaxReturnReason),
			"items":        lines(1),
			"confirm":      map[string]any{"type": "boolean"},
		}, "order_number"),
		Run: func(ctx context.Context, s *session.Session, raw json.RawMessage) (toolkit.Result, error) {
			var a requestReturnArgs
			if err := toolkit.DecodeArgs(raw, &a); err != nil {
				return toolkit.Result{}, err
			}
			o, err := d.ownOrder(ctx, s, a.OrderNumber)
			if err != nil {
				return toolkit.Result{}, err
			}
			extra, err := d.returnsOf(ctx, o)
			if err != nil {
				return toolkit.Result{}, err
			}
			now := d.now(s)
			window := d.window()
			end, limited := catalog.ReturnDeadline(o, window)
			if limited {
				extra["return_by"] = end.Format("2006-01-02")
			}
			switch {
			case o.Status != catalog.StatusDelivered:
				return answer("not_delivered", o, extra), nil
			case limited && now.After(end):
				return answer("window_closed", o, extra), nil
			case !a.Confirm:
				return answer("confirm", o, extra), nil
			case strings.TrimSpace(a.Reason) == "" || a.Kind == "":
				return toolkit.Result{}, toolkit.Errorf("ask the shopper why, and whether they want their money back (return) or an exchange")
			}
			req := catalog.ReturnRequest{Number: o.Number, Key: returnKey(s, o), Kind: catalog.ReturnKind(a.Kind),
				Reason: a.Reason, Lines: map[string]int{}, Now: now, Window: window}
			for _, it := range a.Items {
				req.Lines[strings.ToUpper(strings.TrimSpace(it.SKU))] += it.Quantity
			}
			_, err = d.Apply(ctx, s, "request_return:"+o.Number, func(ctx context.Context, w toolkit.Writes) (*view.Notice, error) {
				rr, ok := w.(returnRequester)
				if !ok {
					return nil, noWrites()
				}
				_, err := rr.RequestOwnReturn(ctx, req)
				return nil, err
			})
			switch {
			case errors.Is(err, catalog.ErrReturnClosed):
				return answer("window_closed", o, extra), nil
			case errors.Is(err, catalog.ErrInvalidTransition):
				return answer("not_delivered", o, extra), nil
			case err != nil:
				return toolkit.Result{}, userError(err)
			}
			if extra, err = d.returnsOf(ctx, o); err != nil {
				return toolkit.Result{}, err
			}
			return answer("requested", o, extra), nil
		},
	}
}

// returnKey is the request's key: the turn (its journal key, or the
// conversation and DedupKey), so the same turn again finds its return.
func returnKey(s *session.Session, o *catalog.Order) string {
	if k := s.Effects().Key(); k != "" {
		return k
	}
	if s.DedupKey != "" {
		return "chat:" + s.DedupKey
	}
	return "order:" + o.Number // no turn key: one return per order
}

// ReturnBrief is one return as the model reads it.
type ReturnBrief struct {
	Kind   string      `json:"kind"`
	Status string      `json:"status"`
	Date   string      `json:"date"`
	Note   string      `json:"note,omitempty"`
	Lines  []BriefLine `json:"lines"`
}

// returnsOf lists o's returns for the model ({"returns": [...]}).
func (d Deps) returnsOf(ctx context.Context, o *catalog.Order) (map[string]any, error) {
	rr, ok := d.Orders().(returnReader)
	if !ok {
		return map[string]any{}, nil
	}
	rs, err := rr.OrderReturns(ctx, o.ID)
	if err != nil {
		return nil, err
	}
	out := make([]ReturnBrief, len(rs))
	for i, r := range rs {
		out[i] = ReturnBrief{Kind: string(r.Kind), Status: string(r.Status), Date: r.CreatedAt.Format("2006-01-02"), Note: r.Note}
		for _, l := range r.Lines {
			out[i].Lines = append(out[i].Lines, BriefLine{SKU: l.SKU, Title: l.Title, Qty: l.Qty})
		}
	}
	if len(out) == 0 {
		return map[string]any{}, nil
	}
	return map[string]any{"returns": out}, nil
}
