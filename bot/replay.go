package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"shopbot/admin"
	"shopbot/catalog"
	"shopbot/engine/eval"
	"shopbot/engine/llm"
	"shopbot/engine/outcome"
)

// conversationIDs is --conversation, repeatable and comma-separated.
type conversationIDs []int64

func (c *conversationIDs) String() string { return fmt.Sprint([]int64(*c)) }

func (c *conversationIDs) Set(s string) error {
	for _, part := range strings.Split(s, ",") {
		id, err := strconv.ParseInt(strings.TrimSpace(part), 10, 64)
		if err != nil || id <= 0 {
			return fmt.Errorf("%q is not a conversation id", part)
		}
		*c = append(*c, id)
	}
	return nil
}

// replayOptions are replay's flags once checked.
type replayOptions struct {
	since    time.Duration
	convs    conversationIDs
	limit    int
	parallel int
	offline  bool
	asJSON   bool
}

func parseReplayFlags(fs *flag.FlagSet, args []string, getenv func(string) string) (Config, replayOptions, error) {
	var o replayOptions
	since := fs.String("since", "", "replay the turns of the last DURATION (e.g. 24h, 90m; default 24h)")
	fs.Var(&o.convs, "conversation", "replay these conversations (ID, repeatable or comma-separated) instead of --since")
	fs.IntVar(&o.limit, "limit", 0, "replay at most N turns (0: all)")
	fs.IntVar(&o.parallel, "parallel", 4, "conversations replayed at once")
	modelFlag := fs.String("model", "", "offline: answer with the offline planner even when a model is configured")
	fs.BoolVar(&o.asJSON, "json", false, "write every replayed turn, then and now, as JSON")
	cfg, err := loadConfig(fs, args, getenv)
	if err != nil {
		return cfg, o, err
	}
	o.offline = *modelFlag == "offline"
	switch {
	case *since != "" && len(o.convs) > 0:
		return cfg, o, usagef("give --since or --conversation, not both")
	case o.limit < 0:
		return cfg, o, usagef("--limit must be 0 (all) or more")
	case o.parallel < 1 || o.parallel > 64:
		return cfg, o, usagef("--parallel must be 1 to 64")
	case *modelFlag != "" && !o.offline:
		return cfg, o, usagef("--model takes only offline (the configured model is OPENAI_MODEL)")
	}
	o.since = 24 * time.Hour
	if *since != "" {
		d, err := time.ParseDuration(*since)
		if err != nil || d <= 0 {
			return cfg, o, usagef("--since %q: want a positive duration such as 24h or 90m", *since)
		}
		o.since = d
	}
	return cfg, o, nil
}

// replayCmd runs stored shopper turns again in a sandbox against the
// current configuration and prints those that came out differently.
// The shop is only read.
func replayCmd(ctx context.Context, e env, args []string) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	cfg, o, err := parseReplayFlags(fs, args, e.getenv)
	if err != nil {
		return err
	}
	log := e.logger(slog.LevelWarn)
	db, info, err := catalog.OpenDB(cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	rep, err := runReplay(ctx, &cfg, db, o, log, nil)
	if err != nil {
		return fmt.Errorf("%s: %w", info, err)
	}
	if o.asJSON {
		return rep.WriteJSON(e.stdout)
	}
	return rep.Write(e.stdout)
}

// runReplay loads the stored turns o selects, clones the shop and replays
// them; progress, when set, hears the total then each step.
func runReplay(ctx context.Context, cfg *Config, db *bun.DB, o replayOptions, log *slog.Logger, progress func(done, total int)) (*eval.ReplayReport, error) {
	convs, err := loadStored(ctx, db, o, time.Now())
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "shopbot-replay-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	tmpl, err := evalTemplate(ctx, cfg, dir, false)
	if err != nil {
		return nil, err
	}
	search, err := sandboxSearch(ctx, cfg, tmpl, log)
	if err != nil {
		return nil, err
	}
	var model llm.Model
	if !o.offline {
		model = newModel(cfg, log)
	}
	total := 0
	for _, c := range convs {
		total += len(c.Turns)
	}
	r := &eval.Replayer{Template: tmpl, Parallel: o.parallel,
		NewEngine: func(db *bun.DB) (eval.Handler, error) { return sandboxEngine(cfg, db, search, model, log) }}
	if progress != nil {
		progress(0, total)
		r.Progress = func(done int) { progress(done, total) }
	}
	return r.Replay(ctx, convs)
}

// loadStored reads the conversations to replay from the shop, only
// reading, and keeps at most o.limit turns in all.
func loadStored(ctx context.Context, db *bun.DB, o replayOptions, now time.Time) ([]*eval.Stored, error) {
	since := time.Time{}
	ids := []int64(o.convs)
	if len(ids) == 0 {
		since = now.Add(-o.since)
		var err error
		if ids, err = catalog.ConversationsWithTurnsSince(ctx, db, since); err != nil {
			return nil, err
		}
	}
	var out []*eval.Stored
	left := o.limit
	for _, id := range ids {
		if o.limit > 0 && left == 0 {
			break
		}
		s, err := eval.LoadStored(ctx, db, id, since, left)
		if err != nil {
			return nil, fmt.Errorf("conversation %d: %w", id, err)
		}
		left -= len(s.Turns)
		if len(s.Turns) > 0 {
			out = append(out, s)
		}
	}
	return out, nil
}

// adminReplayer is the admin panel's Replayer: replay over the serving
// process's database and configuration.
type adminReplayer struct {
	cfg *Config
	db  *bun.DB
	log *slog.Logger
}

func (a *adminReplayer) Conversation(ctx context.Context, id int64) ([]admin.ReplayTurn, error) {
	rep, err := runReplay(ctx, a.cfg, a.db, replayOptions{convs: conversationIDs{id}, parallel: 1}, a.log, nil)
	if err != nil {
		return nil, err
	}
	return adminTurns(rep), nil
}

func (a *adminReplayer) Since(ctx context.Context, d time.Duration, progress func(done, total int)) ([]admin.ReplayTurn, error) {
	rep, err := runReplay(ctx, a.cfg, a.db, replayOptions{since: d, parallel: 4}, a.log, progress)
	if err != nil {
		return nil, err
	}
	return adminTurns(rep), nil
}

func (a *adminReplayer) Scenario(ctx context.Context, id int64, name string) ([]byte, error) {
	s, err := eval.LoadStored(ctx, a.db, id, time.Time{}, 0)
	if err != nil {
		return nil, err
	}
	return eval.WriteScenario(s, name)
}

func adminTurns(rep *eval.ReplayReport) []admin.ReplayTurn {
	out := make([]admin.ReplayTurn, len(rep.Turns))
	for i, t := range rep.Turns {
		out[i] = admin.ReplayTurn{Conversation: t.Conversation, Turn: t.Turn, Input: t.Input,
			Then: adminSide(t.Then), Now: adminSide(t.Now), Error: t.Error}
		if t.Changes.Any() {
			out[i].Changed = strings.Split(t.Changes.String(), ", ")
		}
	}
	return out
}

func adminSide(o outcome.Outcome) admin.ReplaySide {
	s := admin.ReplaySide{Products: o.SKUs(), Order: o.Order, Reply: o.Reply, Cart: "empty"}
	for _, c := range o.Tools {
		s.Tools = append(s.Tools, c.Name+c.Arguments)
	}
	if len(o.Cart) > 0 {
		var parts []string
		for _, sku := range slices.Sorted(maps.Keys(o.Cart)) {
			parts = append(parts, fmt.Sprintf("%s × %d", sku, o.Cart[sku]))
		}
		s.Cart = strings.Join(parts, ", ")
	}
	return s
}
