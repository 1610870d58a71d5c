package admin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"shopbot/catalog"
)

// Replayer runs stored shopper turns again in a sandbox copy of the shop
// against the current settings (bot wires engine/eval's); nothing it does
// reaches the shop. Nil hides the replay pages.
type Replayer interface {
	// Conversation replays every turn of a conversation.
	Conversation(ctx context.Context, id int64) ([]ReplayTurn, error)
	// Since replays the turns of the last d, calling progress as turns
	// finish (from any goroutine).
	Since(ctx context.Context, d time.Duration, progress func(done, total int)) ([]ReplayTurn, error)
	// Scenario writes a conversation's turns as an eval scenario file.
	Scenario(ctx context.Context, id int64, name string) ([]byte, error)
}

// ReplayTurn is a turn as it went then and as it goes now.
type ReplayTurn struct {
	Conversation int64
	Turn         int
	Input        string
	Then, Now    ReplaySide
	Changed      []string // tools, products, cart, order, reply; none when equal
	Error        string   // the replay could not run the turn
}

// ReplaySide is one side of a replayed turn, as text.
type ReplaySide struct {
	Tools    []string // name{arguments}
	Products []string // SKUs in order
	Cart     string
	Order    string
	Reply    string
}

// Marked reports whether what changed includes part, for the template.
func (t ReplayTurn) Marked(part string) bool {
	for _, c := range t.Changed {
		if c == part {
			return true
		}
	}
	return false
}

// replayJob is this process's side of the batch it runs: the batch
// itself (progress, result) lives in the database so every replica's
// Replay page shows it.
type replayJob struct {
	mu       sync.Mutex
	finished chan struct{} // closed when this process's batch ends; tests wait on it
}

// replayView is the Replay page.
type replayView struct {
	Enabled  bool
	Since    string
	Started  bool
	Running  bool
	Refresh  bool
	State    string // running, done, failed, interrupted
	Done     int
	Total    int
	Percent  int
	Took     time.Duration
	Error    string
	Changed  []ReplayTurn
	Replayed int
}

// replaySinceChoices are the batches the form offers.
var replaySinceChoices = map[string]time.Duration{"1h": time.Hour, "24h": 24 * time.Hour, "168h": 7 * 24 * time.Hour}

func (s *Server) replayPage(w http.ResponseWriter, r *http.Request) {
	v := replayView{Enabled: s.cfg.Replayer != nil, Since: "24h"}
	b, err := catalog.LatestReplayBatch(r.Context(), s.cfg.DB)
	switch {
	case errors.Is(err, catalog.ErrNotFound):
	case err != nil:
		s.renderError(w, r, err)
		return
	default:
		var turns []ReplayTurn
		if err := json.Unmarshal([]byte(b.Turns), &turns); err != nil {
			s.renderError(w, r, fmt.Errorf("admin: replay batch %d turns: %w", b.ID, err))
			return
		}
		v.Started, v.State, v.Since = true, b.State(s.cfg.Now()), b.Since().String()
		v.Running, v.Done, v.Total, v.Error, v.Replayed = v.State == catalog.ReplayRunning, b.Done, b.Total, b.Error, len(turns)
		if v.State == catalog.ReplayInterrupted {
			v.Error = "the replica running it stopped before the end. Start it again."
		}
		if !b.FinishedAt.IsZero() {
			v.Took = b.FinishedAt.Time.Sub(b.StartedAt)
		}
		for _, t := range turns {
			if len(t.Changed) > 0 || t.Error != "" {
				v.Changed = append(v.Changed, t)
			}
		}
	}
	v.Refresh = v.Running
	if v.Total > 0 {
		v.Percent = v.Done * 100 / v.Total
	}
	s.render(w, r, http.StatusOK, "replay", "Replay", "replay", v)
}

// startReplay starts a batch over the last --since of turns in the
// background; a batch already running on any replica is left to finish.
func (s *Server) startReplay(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Replayer == nil {
		s.renderError(w, r, badRequest("Replay is not available in this process."))
		return
	}
	since, ok := replaySinceChoices[r.FormValue("since")]
	if !ok {
		s.renderError(w, r, badRequest("Choose the last hour, day or week."))
		return
	}
	user := sessionFrom(r.Context()).Username
	b, err := catalog.StartReplayBatch(r.Context(), s.cfg.DB, since, user, s.cfg.Now())
	if errors.Is(err, catalog.ErrConflict) {
		redirect(w, r, "/admin/replay", "A replay is already running.")
		return
	}
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	finished := make(chan struct{})
	s.replay.mu.Lock()
	s.replay.finished = finished
	s.replay.mu.Unlock()
	go s.runReplay(context.WithoutCancel(r.Context()), b, finished)
	s.log.InfoContext(r.Context(), "replay started", "batch", b.ID, "since", since.String(), "user", user)
	redirect(w, r, "/admin/replay", "Replay started.")
}

// runReplay runs batch b, beating its heartbeat every ReplayBeat and on
// each step, and stores the result.
func (s *Server) runReplay(ctx context.Context, b catalog.ReplayBatch, finished chan struct{}) {
	defer close(finished)
	stop := make(chan struct{})
	defer close(stop)
	var mu sync.Mutex
	done, total := 0, 0
	beat := func() {
		mu.Lock()
		d, t := done, total
		mu.Unlock()
		if err := catalog.ReplayProgress(ctx, s.cfg.DB, b.ID, d, t, s.cfg.Now()); err != nil {
			s.log.WarnContext(ctx, "replay progress", "batch", b.ID, "err", err)
		}
	}
	go func() {
		tick := time.NewTicker(catalog.ReplayBeat)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				beat()
			}
		}
	}()
	turns, err := s.cfg.Replayer.Since(ctx, b.Since(), func(d, t int) {
		mu.Lock()
		done, total = max(done, d), t
		mu.Unlock()
		beat()
	})
	failure := ""
	if err != nil {
		failure = replayFailure(err)
		s.log.WarnContext(ctx, "replay failed", "batch", b.ID, "err", err)
	}
	if turns == nil {
		turns = []ReplayTurn{}
	}
	out, jerr := json.Marshal(turns)
	if jerr != nil {
		failure, out = replayFailure(jerr), []byte("[]")
		s.log.WarnContext(ctx, "replay result", "batch", b.ID, "err", jerr)
	}
	if err := catalog.FinishReplayBatch(ctx, s.cfg.DB, b.ID, string(out), failure, s.cfg.Now()); err != nil {
		s.log.WarnContext(ctx, "replay finish", "batch", b.ID, "err", err)
	}
}

// replayFailure is why a replay stopped, as the page says it after "The
// replay stopped: "; the Go error is logged.
func replayFailure(err error) string {
	switch {
	case errors.Is(err, context.Canceled):
		return "it was cancelled before the end."
	case errors.Is(catalog.Unavailable(err), catalog.ErrUnavailable):
		return "the database was unreachable. Try again in a moment."
	default:
		return "something went wrong; the error is logged."
	}
}
