package aftersale

import (
	"context"

	"shopbot/engine/planner/intent"
)

// A return or an exchange, asked first and requested on a yes, and the
// status of those already asked.

const (
	rReturnAsk       = "return_ask"
	rReturnRequested = "return_requested"
	rReturnNotYet    = "return_not_delivered"
	rReturnClosed    = "return_window_closed"
	rReturnStatus    = "return_status"
	rNoReturns       = "no_returns"
)

// Return answers IntentReturn: a return or exchange (Value) of the order
// named or the latest, with the reason (Query), asked first and
// requested on a yes; Topic "status" lists the requests made.
func Return(ctx context.Context, t Turn, in intent.Intent) error {
	if in.Topic == "keep" {
		t.Say(rKeepOrder, nil)
		return nil
	}
	number, err := orderFor(ctx, t, in.Order)
	if err != nil || number == "" {
		return failIf(t, err)
	}
	args := map[string]any{"order_number": number}
	if in.Topic == "confirm" {
		args["confirm"], args["kind"], args["reason"] = true, in.Value, in.Query
	}
	d, ok, err := callAftersale(ctx, t, "request_return", args)
	if err != nil || !ok {
		return failIf(t, err)
	}
	d.Kind, d.Reason = in.Value, in.Query
	switch {
	case in.Topic == "status" && len(d.Returns) == 0:
		t.Say(rNoReturns, d)
	case in.Topic == "status":
		t.Say(rReturnStatus, d)
	case d.Status == "confirm":
		t.Say(rReturnAsk, d)
		t.Ask(intent.PendingReturn + number + "|" + in.Value + "|" + in.Query)
	case d.Status == "requested":
		t.Say(rReturnRequested, d)
	case d.Status == "window_closed":
		t.Say(rReturnClosed, d)
	default:
		t.Say(rReturnNotYet, d)
	}
	return nil
}
