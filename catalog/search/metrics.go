package search

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// Metrics are the search series, labelled by backend.
type Metrics struct {
	latency  *prometheus.HistogramVec
	fallback *prometheus.CounterVec
}

// NewMetrics registers the search series with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	f := promauto.With(reg)
	return &Metrics{
		latency: f.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "shopbot_search_latency_seconds",
			Help:    "Time to answer a search or similar-products query, by backend.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"backend"}),
		fallback: f.NewCounterVec(prometheus.CounterOpts{
			Name: "shopbot_search_fallback_total",
			Help: "Queries answered by the fallback because the backend failed, by failed backend.",
		}, []string{"backend"}),
	}
}
