package admin

import (
	"math"
	"time"
)

// barChart is a per-day bar chart drawn as inline SVG on the server.
type barChart struct {
	Title  string
	Total  string // headline figure for the period
	Width  int
	Height int
	Bars   []bar
	Max    string // label of the top gridline
	First  string // first day
	Last   string // last day
	Empty  bool
}

type bar struct {
	X, Y, W, H float64
	Tip        string // day and value, shown on hover
}

const (
	chartW      = 600
	chartH      = 150
	chartTop    = 14
	chartBottom = 20
)

// newBarChart lays out one bar per day; format renders values.
func newBarChart(title, total string, days []time.Time, vals []float64, format func(float64) string) barChart {
	c := barChart{Title: title, Total: total, Width: chartW, Height: chartH + chartBottom, Empty: true}
	if len(days) == 0 {
		return c
	}
	top := 0.0
	for _, v := range vals {
		top = math.Max(top, v)
		if v > 0 {
			c.Empty = false
		}
	}
	if top == 0 {
		top = 1
	}
	slot := float64(chartW) / float64(len(days))
	for i, d := range days {
		h := vals[i] / top * float64(chartH-chartTop)
		c.Bars = append(c.Bars, bar{
			X: float64(i)*slot + slot*0.15, W: slot * 0.7, Y: float64(chartH) - h, H: h,
			Tip: d.Format("Mon 2 Jan") + ": " + format(vals[i]),
		})
	}
	c.Max = format(top)
	c.First, c.Last = days[0].Format("2 Jan"), days[len(days)-1].Format("2 Jan")
	return c
}
