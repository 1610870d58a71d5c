// Package admin owns Shopbot's HTTP surface for operators and merchants:
// the health and readiness probes, the Prometheus endpoint and, as it grows,
// the merchant panel (products, orders, conversations, settings) built from
// net/http, html/template and embedded assets.
//
// All routes are declared in routes.go. Handlers get their dependencies from
// the Server that New builds from a Config; the package reads no environment
// and owns no globals. Its own metrics (HTTP requests by route and status,
// request latency) are registered in metrics.go on the registry it is given.
package admin
