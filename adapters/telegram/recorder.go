package telegram

import (
	"bytes"
	"context"
	"errors"
	"time"

	"github.com/go-telegram/bot/models"
	"github.com/uptrace/bun"
)

// An arrival is an update waiting to be recorded.
type arrival struct {
	update   *models.Update
	raw      []byte
	received time.Time
	done     chan error
}

// maxBatch bounds the updates recorded in one statement.
const maxBatch = 500

// recordLoop writes arriving updates to the inbox in batches (one
// statement, one connection held for it, so acknowledgements do not queue
// behind turns for the pool) and queues the new ones for handling. It is
// the writer that queues, not the request that waits: an update recorded
// after its webhook request gave up is still handled.
func (a *Adapter) recordLoop() {
	defer a.side.Done()
	var conn *bun.Conn
	defer func() {
		if conn != nil {
			conn.Close()
		}
	}()
	for {
		var batch []arrival
		select {
		case <-a.ctx.Done():
			return
		case first := <-a.arrivals:
			batch = append(batch, first)
		}
	drain:
		for len(batch) < maxBatch {
			select {
			case more := <-a.arrivals:
				batch = append(batch, more)
			default:
				break drain
			}
		}
		var err error
		if conn == nil {
			var c bun.Conn
			if c, err = a.cfg.DB.Conn(a.ctx); err == nil {
				conn = &c
			}
		}
		if err == nil {
			err = a.recordArrivals(conn, batch)
		}
		if err != nil && conn != nil {
			conn.Close() // a broken connection is replaced next time
			conn = nil
		}
		for _, b := range batch {
			b.done <- err
		}
	}
}

func (a *Adapter) recordArrivals(conn *bun.Conn, batch []arrival) error {
	rows := make([]inboxRow, 0, len(batch))
	seen := map[int64]bool{}
	for _, b := range batch {
		if seen[b.update.ID] {
			continue // the same update twice in one batch
		}
		seen[b.update.ID] = true
		rows = append(rows, inboxRow{UpdateID: b.update.ID, ChatID: chatKey(b.update), Payload: storable(b.raw), ReceivedAt: b.received.UTC()})
	}
	fresh, err := recordBatch(a.ctx, conn, rows)
	if err != nil {
		return err
	}
	for _, b := range batch {
		a.metrics.ack.Observe(time.Since(b.received).Seconds())
		if !fresh[b.update.ID] {
			a.metrics.duplicates.Inc()
			continue
		}
		delete(fresh, b.update.ID)
		a.metrics.updates.WithLabelValues(kindOf(b.update)).Inc()
		a.dispatch(b.update, b.received)
	}
	return nil
}

// storable is a raw update as the inbox keeps it: invalid UTF-8 becomes
// U+FFFD, as decoding it does anyway, so that the stored text is valid on
// both databases whatever way it is written (Postgres refuses invalid
// UTF-8 in a bound parameter). A NUL cannot be there: JSON allows it only
// escaped.
func storable(raw []byte) string {
	return string(bytes.ToValidUTF8(raw, []byte("\uFFFD")))
}

// errStopping reports an update that arrived while the adapter stops.
var errStopping = errors.New("telegram: stopping")

// accept records an update durably and queues it for handling; a
// redelivered update is recognised by its update_id and does nothing. It
// returns once the update is recorded (or recording failed).
func (a *Adapter) accept(ctx context.Context, u *models.Update, raw []byte, received time.Time) error {
	arr := arrival{update: u, raw: raw, received: received, done: make(chan error, 1)}
	select {
	case a.arrivals <- arr:
	case <-a.ctx.Done():
		return errStopping
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-arr.done:
		return err
	case <-a.ctx.Done():
		return errStopping
	case <-ctx.Done():
		return ctx.Err()
	}
}
