package telegram

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"
	"github.com/uptrace/bun"

	"shopbot/adapters/telegram/telegramtest"
	"shopbot/catalog/catalogtest"
	"shopbot/engine"
)

// recorder wraps the engine and notes the turns each chat saw, in order.
type recorder struct {
	inner Handler
	delay time.Duration // a slow model
	mu    sync.Mutex
	turns map[string][]string // chat → texts
	keys  map[string]int      // dedup key → times handled
}

func (r *recorder) Handle(ctx context.Context, t engine.Turn, sink engine.Sink) error {
	r.mu.Lock()
	r.turns[t.ChatID] = append(r.turns[t.ChatID], t.Text)
	r.keys[t.DedupKey]++
	r.mu.Unlock()
	if r.delay > 0 {
		select {
		case <-time.After(r.delay):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return r.inner.Handle(ctx, t, sink)
}

// benchDB is SQLite, or Postgres with BENCH_DB=postgres.
func benchDB(b *testing.B) *bun.DB {
	if testingEnv("BENCH_DB") == "postgres" {
		db, _ := catalogtest.Postgres(b)
		return db
	}
	return catalogtest.SQLite(b)
}

// maxConnections is Telegram's default webhook max_connections.
const maxConnections = 40

// BenchmarkWebhook delivers 1,000 updates from 200 chats (5 each, every
// chat's in order, over 40 connections like Telegram) plus 100
// redeliveries to the webhook over HTTP and reports the acknowledgement latency, lost and
// duplicated turns and order violations. BENCH_MODEL_DELAY=20s makes
// every turn wait like a slow model: acks must not.
func BenchmarkWebhook(b *testing.B) {
	delay, _ := time.ParseDuration(testingEnv("BENCH_MODEL_DELAY"))
	for range b.N {
		db := benchDB(b)
		rec := &recorder{delay: delay, turns: map[string][]string{}, keys: map[string]int{}}
		r := newRig(b, db, func(c *Config) {
			webhookMode(c)
			rec.inner = c.Engine
			c.Engine = rec
			c.PrivateEvery, c.Burst = time.Second, 3 // production pacing
			if n, err := strconv.Atoi(testingEnv("BENCH_CONCURRENCY")); err == nil {
				c.Concurrency = n
			}
		})
		hs := httptest.NewServer(r.a)
		const chats, per = 200, 5
		var mu sync.Mutex
		var acks []time.Duration
		var wg sync.WaitGroup
		start := time.Now()
		// Telegram opens at most max_connections (default 40) at once;
		// each connection here carries its chats' updates in order.
		for k := range maxConnections {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range per {
					for c := k; c < chats; c += maxConnections {
						u := telegramtest.User(int64(10_000+c), "Shopper")
						up := telegramtest.Text(u, fmt.Sprintf("m%d running shoes", i))
						up.ID = int64(1_000_000 + c*per + i)
						body := telegramtest.JSON(up)
						times := 1
						if (c*per+i)%10 == 0 {
							times = 2 // a redelivery
						}
						for range times {
							t0 := time.Now()
							if code := postHook(hs.URL, body); code != http.StatusOK {
								b.Errorf("webhook answered %d", code)
							}
							mu.Lock()
							acks = append(acks, time.Since(t0))
							mu.Unlock()
						}
					}
				}
			}()
		}
		wg.Wait()
		ackAll := time.Since(start)
		if delay == 0 {
			waitAllHandled(b, db, chats*per)
		}
		handledAll := time.Since(start)
		hs.Close()

		rec.mu.Lock()
		lost, dups, disorder := 0, 0, 0
		for c := range chats {
			texts := rec.turns[strconv.Itoa(10_000+c)]
			if delay == 0 && len(texts) != per {
				lost += per - len(texts)
			}
			for i := 1; i < len(texts); i++ {
				if texts[i] < texts[i-1] {
					disorder++
				}
			}
		}
		for _, n := range rec.keys {
			dups += n - 1
		}
		rec.mu.Unlock()
		sort.Slice(acks, func(i, j int) bool { return acks[i] < acks[j] })
		b.ReportMetric(ms(acks[len(acks)/2]), "ack_p50_ms")
		b.ReportMetric(ms(acks[len(acks)*99/100]), "ack_p99_ms")
		b.ReportMetric(ms(acks[len(acks)-1]), "ack_max_ms")
		b.ReportMetric(ackAll.Seconds(), "all_acked_s")
		if delay == 0 {
			b.ReportMetric(handledAll.Seconds(), "all_handled_s")
		}
		b.ReportMetric(float64(lost), "lost")
		b.ReportMetric(float64(dups), "dup_turns")
		b.ReportMetric(float64(disorder), "out_of_order")
		if lost+dups+disorder > 0 {
			b.Errorf("lost %d, duplicated %d, out of order %d", lost, dups, disorder)
		}
	}
}

func postHook(url string, body []byte) int {
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Telegram-Bot-Api-Secret-Token", secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

func waitAllHandled(b *testing.B, db *bun.DB, n int) {
	deadline := time.Now().Add(5 * time.Minute)
	for time.Now().Before(deadline) {
		done, err := db.NewSelect().Table("inbox").Where("source = 'telegram'").Where("handled_at IS NOT NULL").Count(context.Background())
		if err == nil && int(done) >= n {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	b.Fatalf("not all %d updates handled in 5 minutes", n)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// BenchmarkCallback presses Add to cart on a card (the demo catalog and
// the real engine) in 50 chats at once, 4 presses each 300 ms apart, and
// reports the time from delivering the press to answering its callback
// query, and how many answers carried the "Added ✓" toast (the rest were
// answered empty by the watchdog).
func BenchmarkCallback(b *testing.B) {
	pressGap := 300 * time.Millisecond
	if d, err := time.ParseDuration(testingEnv("BENCH_PRESS_GAP")); err == nil {
		pressGap = d
	}
	for range b.N {
		db := benchDB(b)
		r := newRig(b, db, func(c *Config) {
			webhookMode(c)
			c.PrivateEvery, c.Burst = time.Second, 3
			if n, err := strconv.Atoi(testingEnv("BENCH_CONCURRENCY")); err == nil {
				c.Concurrency = n
			}
		})
		hs := httptest.NewServer(r.a)
		sent := map[string]time.Time{}
		var mu sync.Mutex
		var wg sync.WaitGroup
		chats, presses := 50, 4
		if n, err := strconv.Atoi(testingEnv("BENCH_CHATS")); err == nil {
			chats = n
		}
		for c := range chats {
			wg.Add(1)
			go func() {
				defer wg.Done()
				u := telegramtest.User(int64(20_000+c), "Presser")
				chat := models.Chat{ID: u.ID, Type: models.ChatTypePrivate}
				for i := range presses {
					if i > 0 {
						time.Sleep(pressGap) // a person pressing again
					}
					up := telegramtest.Callback(chat, u, 1, "add|"+mugSKU+"|1")
					up.ID = r.srv.NextID()
					mu.Lock()
					sent[up.CallbackQuery.ID] = time.Now()
					mu.Unlock()
					postHook(hs.URL, telegramtest.JSON(up))
				}
			}()
		}
		wg.Wait()
		calls := r.srv.Wait(b, time.Minute, "every press answered", func(cs []telegramtest.Call) bool {
			n := 0
			for _, c := range cs {
				if c.Method == "answerCallbackQuery" {
					n++
				}
			}
			return n >= chats*presses
		})
		hs.Close()
		var lat []time.Duration
		toasts := 0
		for _, c := range calls {
			if c.Method != "answerCallbackQuery" {
				continue
			}
			mu.Lock()
			lat = append(lat, c.Time.Sub(sent[c.Params["callback_query_id"]]))
			mu.Unlock()
			if c.Params["text"] == "Added ✓" {
				toasts++
			}
		}
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		b.ReportMetric(ms(lat[len(lat)/2]), "answer_p50_ms")
		b.ReportMetric(ms(lat[len(lat)*99/100]), "answer_p99_ms")
		b.ReportMetric(float64(toasts)/float64(len(lat))*100, "toast_%")
	}
}
