package logctx

import (
	"context"
	"log/slog"

	"shopbot/catalog/personal"
)

// maskingHandler masks the contact details shoppers type (phone numbers,
// e-mails, street addresses) in every string and error logged through it.
type maskingHandler struct{ next slog.Handler }

// MaskPersonal wraps h so that the contact details shoppers type (phone
// numbers, e-mails, street addresses; catalog/personal) are masked in
// every message, string attribute and error: message text reaches logs
// through attributes and wrapped errors, and logs are kept and shipped
// where an order's contact is not. The engine logs through it.
func MaskPersonal(h slog.Handler) slog.Handler { return maskingHandler{h} }

func (h maskingHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.next.Enabled(ctx, l)
}

func (h maskingHandler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, personal.Mask(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(maskAttr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h maskingHandler) WithAttrs(as []slog.Attr) slog.Handler {
	masked := make([]slog.Attr, len(as))
	for i, a := range as {
		masked[i] = maskAttr(a)
	}
	return maskingHandler{h.next.WithAttrs(masked)}
}

func (h maskingHandler) WithGroup(name string) slog.Handler {
	return maskingHandler{h.next.WithGroup(name)}
}

func maskAttr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, personal.Mask(v.String()))
	case slog.KindGroup:
		g := v.Group()
		out := make([]slog.Attr, len(g))
		for i, ga := range g {
			out[i] = maskAttr(ga)
		}
		return slog.Attr{Key: a.Key, Value: slog.GroupValue(out...)}
	case slog.KindAny:
		if err, ok := v.Any().(error); ok {
			return slog.String(a.Key, personal.Mask(err.Error()))
		}
	}
	return a
}
