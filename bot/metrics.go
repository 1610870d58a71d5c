package main

import (
	"database/sql"
	"runtime"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// processMetrics are the series the shopbot process itself reports.
type processMetrics struct {
	ready        prometheus.Gauge
	startSeconds prometheus.Gauge
	channelUp    *prometheus.GaugeVec
}

// newRegistry builds the process's registry with the Go, process and
// database-pool collectors and shopbot's own process series.
func newRegistry(sqldb *sql.DB, dbKind string) (*prometheus.Registry, *processMetrics) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		collectors.NewDBStatsCollector(sqldb, dbKind),
	)
	f := promauto.With(reg)
	f.NewGauge(prometheus.GaugeOpts{
		Name:        "shopbot_build_info",
		Help:        "Always 1; labels describe the running build.",
		ConstLabels: prometheus.Labels{"version": buildVersion(), "goversion": runtime.Version(), "database": dbKind},
	}).Set(1)
	m := &processMetrics{
		ready: f.NewGauge(prometheus.GaugeOpts{
			Name: "shopbot_ready",
			Help: "1 once the database is migrated and startup has finished.",
		}),
		startSeconds: f.NewGauge(prometheus.GaugeOpts{
			Name: "shopbot_startup_duration_seconds",
			Help: "Time from process start to ready (migrations and demo catalog included).",
		}),
		channelUp: f.NewGaugeVec(prometheus.GaugeOpts{
			Name: "shopbot_channel_up",
			Help: "1 when the channel's last check by this process succeeded (telegram getMe, slack auth.test, model GET /models), else 0; configured channels only.",
		}, []string{"channel"}),
	}
	return reg, m
}
