package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"shopbot/catalog/catalogtest"
)

// widgetSessions is how many widgets the benchmark keeps open at once.
const widgetSessions = 500

// BenchmarkWidgetSessions runs 500 widget sessions at once against one
// `shopbot serve` (Postgres, the demo shop, the offline planner), as the
// widget does: each opens its live event stream (GET /api/chat/events)
// from a page of another origin, then streams a search and adds a product
// (POST /api/chat, text/event-stream) while all 500 streams stay open.
// It reports errors (must be 0), the resident memory of the process
// (server and the 1,000 client connections together: an upper bound of
// the server's) sampled throughout, and the turns' latency.
//
//	SHOPBOT_REQUIRE_POSTGRES=1 go test -run '^$' -bench WidgetSessions -benchtime 1x ./bot/
func BenchmarkWidgetSessions(b *testing.B) {
	const origin = "https://www.example.com"
	s := startServer(b, map[string]string{"DATABASE_URL": catalogtest.NewPostgresDatabase(b), "WEB_CHAT_ORIGINS": origin})
	s.waitReadyWithin(b, time.Minute)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2 * widgetSessions, MaxConnsPerHost: 0}}
	peak := sampleRSS(b)
	for b.Loop() {
		var errs atomic.Int64
		var mu sync.Mutex
		var firstErr error
		fail := func(err error) {
			if errs.Add(1) == 1 {
				mu.Lock()
				firstErr = err
				mu.Unlock()
			}
		}
		ctx, cancel := context.WithCancel(context.Background())
		var opened, done sync.WaitGroup
		var turnNanos atomic.Int64
		opened.Add(widgetSessions)
		done.Add(widgetSessions)
		release := make(chan struct{})
		for range widgetSessions {
			go func() {
				defer done.Done()
				session := randomSession()
				ready := make(chan struct{})
				go func() {
					if err := holdEvents(ctx, client, s.base, origin, session, ready); err != nil && ctx.Err() == nil {
						fail(err)
					}
				}()
				select {
				case <-ready:
				case <-time.After(time.Minute):
					fail(fmt.Errorf("event stream not ready"))
				}
				opened.Done()
				<-release
				start := time.Now()
				for _, body := range []string{`"message":"running shoes"`, `"action":"add|SHO-TRL-001-42|1"`} {
					if err := widgetTurn(client, s.base, origin, session, body); err != nil {
						fail(err)
						return
					}
				}
				turnNanos.Add(int64(time.Since(start)))
			}()
		}
		opened.Wait() // all 500 live streams open
		close(release)
		done.Wait()
		openRSS := rssMB()
		cancel()
		if n := errs.Load(); n > 0 {
			b.Fatalf("%d errors; the first: %v", n, firstErr)
		}
		b.ReportMetric(float64(turnNanos.Load())/float64(widgetSessions)/2/1e6, "ms/turn")
		b.ReportMetric(openRSS, "MB-RSS-open")
	}
	b.ReportMetric(peak(), "MB-RSS-peak")
	b.ReportMetric(0, "errors")
}

func randomSession() string {
	p := make([]byte, 16)
	_, _ = rand.Read(p)
	return hex.EncodeToString(p)
}

// holdEvents opens a live event stream and reads it until ctx ends,
// closing ready once the server said "ready".
func holdEvents(ctx context.Context, c *http.Client, base, origin, session string, ready chan struct{}) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/api/chat/events?session="+session, nil)
	req.Header.Set("Origin", origin)
	resp, err := c.Do(req)
	if err != nil {
		close(ready)
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Access-Control-Allow-Origin") != origin {
		close(ready)
		return fmt.Errorf("events: %d %v", resp.StatusCode, resp.Header)
	}
	sc := bufio.NewScanner(resp.Body)
	once := sync.OnceFunc(func() { close(ready) })
	for sc.Scan() {
		if sc.Text() == "event: ready" {
			once()
		}
	}
	once()
	return sc.Err()
}

// widgetTurn posts one message or action as the widget does and reads
// its event stream to "done".
func widgetTurn(c *http.Client, base, origin, session, field string) error {
	req, _ := http.NewRequest(http.MethodPost, base+"/api/chat", bytes.NewBufferString(`{"session":"`+session+`",`+field+`,"locale":"en"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Origin", origin)
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return fmt.Errorf("POST %s: %d", field, resp.StatusCode)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		switch sc.Text() {
		case "event: done":
			return nil
		case "event: error":
			return fmt.Errorf("POST %s: an error event", field)
		}
	}
	return fmt.Errorf("POST %s: stream ended before done: %v", field, sc.Err())
}

// rssMB is this process's resident memory now, in MB (Linux).
func rssMB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// sampleRSS samples rssMB every 50 ms until the benchmark ends; the
// returned func is the highest sample.
func sampleRSS(b *testing.B) func() float64 {
	var mu sync.Mutex
	var peak float64
	stop := make(chan struct{})
	go func() {
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			r := rssMB()
			mu.Lock()
			peak = max(peak, r)
			mu.Unlock()
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	b.Cleanup(func() { close(stop) })
	return func() float64 { mu.Lock(); defer mu.Unlock(); return peak }
}
