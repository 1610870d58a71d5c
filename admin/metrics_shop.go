package admin

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/panel"
)

// shopCollector reports the shop's state from the database at scrape
// time: orders by status, carts with something in them, conversations
// waiting for a person. Counting at scrape time keeps the figures right
// across replicas, which per-process counters would not.
type shopCollector struct {
	db         *bun.DB
	orders     *prometheus.Desc
	revenue    *prometheus.Desc
	carts      *prometheus.Desc
	needsHuman *prometheus.Desc
	paused     *prometheus.Desc
	up         *prometheus.Desc
}

func newShopCollector(db *bun.DB) *shopCollector {
	return &shopCollector{
		db:         db,
		orders:     prometheus.NewDesc("shopbot_orders", "Orders in the database, by status.", []string{"status"}, nil),
		revenue:    prometheus.NewDesc("shopbot_order_revenue_minor", "Value of the orders in the database in minor units (cents), refunds taken off, by status and currency.", []string{"status", "currency"}, nil),
		carts:      prometheus.NewDesc("shopbot_carts_open", "Carts holding at least one item.", nil, nil),
		needsHuman: prometheus.NewDesc("shopbot_conversations_needing_human", "Conversations flagged by request_human and not yet handed back.", nil, nil),
		paused:     prometheus.NewDesc("shopbot_conversations_taken_over", "Conversations a merchant has taken over (the bot is silent).", nil, nil),
		up:         prometheus.NewDesc("shopbot_shop_metrics_up", "1 when the shop figures above could be read from the database.", nil, nil),
	}
}

func (c *shopCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.orders, c.revenue, c.carts, c.needsHuman, c.paused, c.up} {
		ch <- d
	}
}

func (c *shopCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := c.collect(ctx, ch); err != nil {
		ch <- prometheus.MustNewConstMetric(c.up, prometheus.GaugeValue, 0)
		return
	}
	ch <- prometheus.MustNewConstMetric(c.up, prometheus.GaugeValue, 1)
}

func (c *shopCollector) collect(ctx context.Context, ch chan<- prometheus.Metric) error {
	n, err := panel.CountShop(ctx, c.db)
	if err != nil {
		return err
	}
	for _, st := range orderStatuses { // every status, zeros included
		ch <- prometheus.MustNewConstMetric(c.orders, prometheus.GaugeValue, float64(n.OrdersByStatus[catalog.OrderStatus(st)]), st)
	}
	for _, r := range n.Revenue {
		ch <- prometheus.MustNewConstMetric(c.revenue, prometheus.GaugeValue, float64(r.Minor), string(r.Status), r.Currency)
	}
	ch <- prometheus.MustNewConstMetric(c.carts, prometheus.GaugeValue, float64(n.Carts))
	ch <- prometheus.MustNewConstMetric(c.needsHuman, prometheus.GaugeValue, float64(n.NeedsHuman))
	ch <- prometheus.MustNewConstMetric(c.paused, prometheus.GaugeValue, float64(n.Paused))
	return nil
}
