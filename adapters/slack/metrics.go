package slack

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

type metrics struct {
	events       *prometheus.CounterVec // by type
	retries      prometheus.Counter
	duplicates   prometheus.Counter
	sigFailures  *prometheus.CounterVec // by reason
	apiCalls     *prometheus.CounterVec // by method, outcome
	ackSeconds   prometheus.Histogram
	queueDropped prometheus.Counter
}

func newMetrics(reg prometheus.Registerer) *metrics {
	f := promauto.With(reg)
	return &metrics{
		events: f.NewCounterVec(prometheus.CounterOpts{
			Name: "shopbot_slack_events_received_total",
			Help: "Slack events, interactions and slash commands received, by type.",
		}, []string{"type"}),
		retries: f.NewCounter(prometheus.CounterOpts{
			Name: "shopbot_slack_retries_seen_total",
			Help: "Slack requests carrying X-Slack-Retry-Num.",
		}),
		duplicates: f.NewCounter(prometheus.CounterOpts{
			Name: "shopbot_slack_duplicates_ignored_total",
			Help: "Slack events already processed (by event_id), acknowledged and dropped.",
		}),
		sigFailures: f.NewCounterVec(prometheus.CounterOpts{
			Name: "shopbot_slack_signature_failures_total",
			Help: "Slack requests rejected with 401, by reason (missing, stale, mismatch).",
		}, []string{"reason"}),
		apiCalls: f.NewCounterVec(prometheus.CounterOpts{
			Name: "shopbot_slack_api_calls_total",
			Help: "Slack Web API calls, by method and outcome (ok, rate_limited, error).",
		}, []string{"method", "outcome"}),
		ackSeconds: f.NewHistogram(prometheus.HistogramOpts{
			Name:    "shopbot_slack_ack_seconds",
			Help:    "Time from receiving a Slack request to acknowledging it.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 3},
		}),
		queueDropped: f.NewCounter(prometheus.CounterOpts{
			Name: "shopbot_slack_queue_dropped_total",
			Help: "Slack work dropped because a conversation's queue was full or the process was stopping.",
		}),
	}
}
