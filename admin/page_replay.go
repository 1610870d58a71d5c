package admin

import (
	"context"
	"errors"
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

// replayJob is the batch the Replay page runs in the background: one at a
// time per process, its result kept until the next starts.
type replayJob struct {
	mu       sync.Mutex
	running  bool
	since    time.Duration
	started  time.Time
	took     time.Duration
	done     int
	total    int
	turns    []ReplayTurn
	err      string
	finished chan struct{} // closed when the job ends; tests wait on it
}

// replayView is the Replay page.
type replayView struct {
	Enabled  bool
	Since    string
	Started  bool
	Running  bool
	Refresh  bool
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
	j := &s.replay
	j.mu.Lock()
	v := replayView{Enabled: s.cfg.Replayer != nil, Since: "24h", Started: !j.started.IsZero(), Running: j.running,
		Done: j.done, Total: j.total, Error: j.err, Replayed: len(j.turns)}
	if v.Started {
		v.Since = j.since.String()
		v.Took = j.took
	}
	for _, t := range j.turns {
		if len(t.Changed) > 0 || t.Error != "" {
			v.Changed = append(v.Changed, t)
		}
	}
	j.mu.Unlock()
	v.Refresh = v.Running
	if v.Total > 0 {
		v.Percent = v.Done * 100 / v.Total
	}
	s.render(w, r, http.StatusOK, "replay", "Replay", "replay", v)
}

// startReplay starts a batch over the last --since of turns in the
// background; a batch already running is left to finish.
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
	j := &s.replay
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.running {
		redirect(w, r, "/admin/replay", "A replay is already running.")
		return
	}
	j.running, j.since, j.started, j.finished = true, since, s.cfg.Now(), make(chan struct{})
	j.took, j.done, j.total, j.turns, j.err = 0, 0, 0, nil, ""
	go s.runReplay(context.WithoutCancel(r.Context()), since, j.finished)
	s.log.InfoContext(r.Context(), "replay started", "since", since.String(), "user", sessionFrom(r.Context()).Username)
	redirect(w, r, "/admin/replay", "Replay started.")
}

func (s *Server) runReplay(ctx context.Context, since time.Duration, finished chan struct{}) {
	j := &s.replay
	start := time.Now()
	turns, err := s.cfg.Replayer.Since(ctx, since, func(done, total int) {
		j.mu.Lock()
		j.done, j.total = max(j.done, done), total
		j.mu.Unlock()
	})
	j.mu.Lock()
	defer j.mu.Unlock()
	j.running, j.turns, j.took = false, turns, time.Since(start)
	if err != nil {
		j.err = replayFailure(err)
		s.log.WarnContext(ctx, "replay failed", "err", err)
	}
	close(finished)
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
