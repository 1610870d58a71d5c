package indexer

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// Metrics are the worker's series.
type Metrics struct {
	pending   prometheus.Gauge
	delivered prometheus.Counter
	failures  prometheus.Counter
}

// NewMetrics registers the worker's series with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	f := promauto.With(reg)
	return &Metrics{
		pending: f.NewGauge(prometheus.GaugeOpts{
			Name: "shopbot_outbox_pending",
			Help: "Catalog changes the search index follower read but has not delivered yet (the name predates the change feed).",
		}),
		delivered: f.NewCounter(prometheus.CounterOpts{
			Name: "shopbot_outbox_delivered_total",
			Help: "Catalog changes delivered to the search index.",
		}),
		failures: f.NewCounter(prometheus.CounterOpts{
			Name: "shopbot_outbox_failures_total",
			Help: "Failed attempts to deliver catalog changes to the search index (each is retried).",
		}),
	}
}
