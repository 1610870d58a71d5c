package admin

import "net/http"

// widgetEmbed is the Settings section of the web chat widget: the tag a
// merchant pastes into their site, the origins allowed to use it, and
// the widget itself on the page as a preview (it runs under the panel's
// strict Content-Security-Policy, as it must on a host site).
type widgetEmbed struct {
	Snippet string
	Origins []string
}

func (s *Server) widgetEmbed(r *http.Request) widgetEmbed {
	return widgetEmbed{
		Snippet: `<script src="` + s.publicBase(r) + `/widget.js" async data-position="right" data-color="#1f5eff"></script>`,
		Origins: s.cfg.WidgetOrigins,
	}
}
