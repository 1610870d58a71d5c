package importer

import (
	"strconv"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"shopbot/catalog"
)

// FeedMetrics are the feed scheduler's Prometheus series.
type FeedMetrics struct {
	fetches     *prometheus.CounterVec
	lastSuccess *prometheus.GaugeVec
}

// NewFeedMetrics registers the feed series on reg.
func NewFeedMetrics(reg prometheus.Registerer) *FeedMetrics {
	f := promauto.With(reg)
	m := &FeedMetrics{
		fetches: f.NewCounterVec(prometheus.CounterOpts{
			Name: "shopbot_feed_fetches_total",
			Help: "Scheduled feed runs of this process, by result: imported, not_changed (304) or failed.",
		}, []string{"result"}),
		lastSuccess: f.NewGaugeVec(prometheus.GaugeOpts{
			Name: "shopbot_feed_last_success_timestamp_seconds",
			Help: "When each enabled feed last ran without failing (0 for never), read from the database so every replica reports it.",
		}, []string{"feed"}),
	}
	for _, r := range []string{catalog.FeedImported, catalog.FeedNotChanged, catalog.FeedFailed} {
		m.fetches.WithLabelValues(r)
	}
	return m
}

func (m *FeedMetrics) fetched(result string) {
	if m != nil {
		m.fetches.WithLabelValues(result).Inc()
	}
}

// observe sets the last-success gauge of every enabled feed; deleted and
// disabled feeds leave the series.
func (m *FeedMetrics) observe(feeds []catalog.Feed) {
	if m == nil {
		return
	}
	m.lastSuccess.Reset()
	for _, f := range feeds {
		if !f.Enabled {
			continue
		}
		v := 0.0
		if !f.LastSuccessAt.IsZero() {
			v = float64(f.LastSuccessAt.Unix())
		}
		m.lastSuccess.WithLabelValues(strconv.FormatInt(f.ID, 10)).Set(v)
	}
}
