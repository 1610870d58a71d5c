package telegram

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

type metrics struct {
	updates     *prometheus.CounterVec
	duplicates  prometheus.Counter
	sends       *prometheus.CounterVec
	rateLimited prometheus.Counter
	callback    prometheus.Histogram
	ack         prometheus.Histogram
}

func newMetrics(reg prometheus.Registerer) *metrics {
	f := promauto.With(reg)
	return &metrics{
		updates: f.NewCounterVec(prometheus.CounterOpts{
			Name: "shopbot_telegram_updates_total",
			Help: "Telegram updates received, by type (message, command, callback_query, pre_checkout_query, successful_payment, contact, other).",
		}, []string{"type"}),
		duplicates: f.NewCounter(prometheus.CounterOpts{
			Name: "shopbot_telegram_duplicate_updates_total",
			Help: "Redelivered Telegram updates recognised by update_id and ignored.",
		}),
		sends: f.NewCounterVec(prometheus.CounterOpts{
			Name: "shopbot_telegram_sends_total",
			Help: "Bot API calls made, by method and outcome (ok, rate_limited, blocked, chat_not_found, bad_request, error).",
		}, []string{"method", "outcome"}),
		rateLimited: f.NewCounter(prometheus.CounterOpts{
			Name: "shopbot_telegram_429_total",
			Help: "Bot API answers 429 Too Many Requests (each waited out for retry_after).",
		}),
		callback: f.NewHistogram(prometheus.HistogramOpts{
			Name:    "shopbot_telegram_callback_seconds",
			Help:    "From receiving a button press to answering its callback query.",
			Buckets: []float64{.01, .025, .05, .1, .2, .5, 1, 2},
		}),
		ack: f.NewHistogram(prometheus.HistogramOpts{
			Name:    "shopbot_telegram_ack_seconds",
			Help:    "From receiving an update to acknowledging it (recorded durably).",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, 1},
		}),
	}
}
