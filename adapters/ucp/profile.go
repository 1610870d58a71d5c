package ucp

import (
	"net/http"
)

// Version is the UCP version served (the spec's tag).
const Version = "2026-04-08"

const specBase = "https://ucp.dev/" + Version

// entity is a service, capability or payment handler of the profile.
type entity struct {
	Version   string `json:"version"`
	Spec      string `json:"spec,omitempty"`
	Schema    string `json:"schema,omitempty"`
	Transport string `json:"transport,omitempty"`
	Endpoint  string `json:"endpoint,omitempty"`
	Extends   string `json:"extends,omitempty"`
}

// Capabilities are the capabilities the shop supports, as the spec
// names them.
var Capabilities = []string{
	"dev.ucp.shopping.catalog.search", "dev.ucp.shopping.catalog.lookup",
	"dev.ucp.shopping.cart", "dev.ucp.shopping.checkout",
	"dev.ucp.shopping.discount", "dev.ucp.shopping.fulfillment", "dev.ucp.shopping.order",
}

// capabilityDocs are each capability's spec page and schema.
var capabilityDocs = map[string][2]string{
	"dev.ucp.shopping.catalog.search": {"catalog/search", "shopping/catalog_search.json"},
	"dev.ucp.shopping.catalog.lookup": {"catalog/lookup", "shopping/catalog_lookup.json"},
	"dev.ucp.shopping.cart":           {"cart", "shopping/cart.json"},
	"dev.ucp.shopping.checkout":       {"checkout", "shopping/checkout.json"},
	"dev.ucp.shopping.discount":       {"discount", "shopping/discount.json"},
	"dev.ucp.shopping.fulfillment":    {"fulfillment", "shopping/fulfillment.json"},
	"dev.ucp.shopping.order":          {"order", "shopping/order.json"},
}

// profile is the business profile: the REST service (checkout
// sessions), the MCP service when the MCP door is on, and the
// capabilities; no payment handler, since the shop takes no card data
// through agents.
func (h *handler) profile(w http.ResponseWriter, r *http.Request) {
	base := h.base(r)
	services := []entity{{Version: Version, Spec: specBase + "/specification/overview", Transport: "rest",
		Endpoint: base + "/ucp/v1", Schema: specBase + "/services/shopping/rest.openapi.json"}}
	if h.opts.MCPPath != "" {
		services = append(services, entity{Version: Version, Spec: specBase + "/specification/overview", Transport: "mcp",
			Endpoint: base + h.opts.MCPPath, Schema: specBase + "/services/shopping/mcp.openrpc.json"})
	}
	caps := map[string][]entity{}
	for _, name := range Capabilities {
		d := capabilityDocs[name]
		e := entity{Version: Version, Spec: specBase + "/specification/" + d[0], Schema: specBase + "/schemas/" + d[1]}
		if name == "dev.ucp.shopping.discount" || name == "dev.ucp.shopping.fulfillment" {
			e.Extends = "dev.ucp.shopping.checkout"
		}
		caps[name] = []entity{e}
	}
	w.Header().Set("Cache-Control", "public, max-age=300")
	writeJSON(w, http.StatusOK, map[string]any{"ucp": map[string]any{
		"version": Version, "services": map[string][]entity{"dev.ucp.shopping": services},
		"capabilities": caps, "payment_handlers": map[string]any{},
	}})
}
