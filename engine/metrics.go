package engine

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// metrics are the engine's Prometheus series.
type metrics struct {
	turns        *prometheus.CounterVec
	turnSeconds  *prometheus.HistogramVec
	modelCalls   *prometheus.CounterVec
	modelSeconds prometheus.Histogram
	modelTokens  *prometheus.CounterVec
	toolCalls    *prometheus.CounterVec
	// toolCallsSkipped counts calls over a reply's MaxToolCalls.
	toolCallsSkipped prometheus.Counter
	degraded         *prometheus.CounterVec
	rateLimited      prometheus.Counter
	unverified       *prometheus.CounterVec
}

func newMetrics(reg prometheus.Registerer) *metrics {
	f := promauto.With(reg)
	return &metrics{
		turns: f.NewCounterVec(prometheus.CounterOpts{
			Name: "shopbot_turns_total",
			Help: "Turns handled, by channel and outcome (model, planner, action, degraded, rate_limited, paused, invalid, error).",
		}, []string{"channel", "outcome"}),
		turnSeconds: f.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "shopbot_turn_duration_seconds",
			Help:    "Wall time of a turn, model time included, by outcome.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"outcome"}),
		modelCalls: f.NewCounterVec(prometheus.CounterOpts{
			Name: "shopbot_model_requests_total",
			Help: "Model requests, by outcome (ok, error).",
		}, []string{"outcome"}),
		modelSeconds: f.NewHistogram(prometheus.HistogramOpts{
			Name:    "shopbot_model_request_duration_seconds",
			Help:    "Latency of successful model requests.",
			Buckets: []float64{.1, .25, .5, 1, 2, 4, 8, 16, 32, 64},
		}),
		modelTokens: f.NewCounterVec(prometheus.CounterOpts{
			Name: "shopbot_model_tokens_total",
			Help: "Model tokens used, by kind (prompt, completion).",
		}, []string{"kind"}),
		toolCalls: f.NewCounterVec(prometheus.CounterOpts{
			Name: "shopbot_tool_calls_total",
			Help: "Tool calls, by tool and status (ok, error).",
		}, []string{"tool", "status"}),
		toolCallsSkipped: f.NewCounter(prometheus.CounterOpts{
			Name: "shopbot_tool_calls_skipped_total",
			Help: "Tool calls not run because a model reply asked for more than MaxToolCalls.",
		}),
		degraded: f.NewCounterVec(prometheus.CounterOpts{
			Name: "shopbot_degraded_turns_total",
			Help: "Turns the offline planner answered although a model is configured, by reason.",
		}, []string{"reason"}),
		rateLimited: f.NewCounter(prometheus.CounterOpts{
			Name: "shopbot_rate_limited_turns_total",
			Help: "Turns refused by the per-customer rate limit.",
		}),
		unverified: f.NewCounterVec(prometheus.CounterOpts{
			Name: "shopbot_unverified_facts_total",
			Help: "Prices or SKUs in model text that no tool returned, by kind.",
		}, []string{"kind"}),
	}
}
