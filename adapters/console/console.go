package console

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"shopbot/engine"
	"shopbot/engine/view"
)

// Handler is the engine as the console uses it.
type Handler interface {
	Handle(ctx context.Context, t engine.Turn, sink engine.Sink) error
}

// Options configure a console session.
type Options struct {
	Interactive bool   // prompt and stream; else one reply block per line
	User        string // platform user id of the terminal user
	Locale      string
	// Notices, when set, are printed between turns (NewNotices with the
	// same User).
	Notices *Notices
}

// Run chats until in ends or ctx is cancelled.
func Run(ctx context.Context, h Handler, in io.Reader, out io.Writer, opts Options) error {
	if opts.User == "" {
		opts.User = "terminal"
	}
	// Turn keys are unique per session: the engine skips a key it has
	// handled in this conversation (a replay), and the next session talks
	// in the same conversation.
	session := strconv.FormatInt(time.Now().UnixNano(), 36)
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 64<<10)
	for n := 1; ; n++ {
		// Notices that came during the last turn (or before the first).
		if err := printNotices(out, opts.Notices); err != nil {
			return err
		}
		if opts.Interactive {
			fmt.Fprint(out, "you> ")
		}
		if !sc.Scan() {
			return sc.Err()
		}
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if opts.Interactive && (line == "/quit" || line == "/exit") {
			return nil
		}
		turn, err := turnOf(line, session+"-"+strconv.Itoa(n), opts)
		if err != nil {
			fmt.Fprintf(out, "! %v\n\n", err)
			continue
		}
		if err := reply(ctx, h, turn, out, opts.Interactive); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return nil
		}
	}
}

func turnOf(line, key string, opts Options) (engine.Turn, error) {
	t := engine.Turn{
		Channel: "console", ChatID: opts.User, UserID: opts.User, UserName: opts.User,
		Locale: opts.Locale, Text: line, DedupKey: "line-" + key,
	}
	if rest, ok := strings.CutPrefix(line, "/do "); ok {
		a, err := view.ParseAction(strings.TrimSpace(rest))
		if err != nil {
			return t, err
		}
		t.Action, t.Text = &a, ""
	}
	return t, nil
}

// reply runs one turn and prints it. Engine failures are printed, not
// returned: the chat goes on.
func reply(ctx context.Context, h Handler, t engine.Turn, out io.Writer, interactive bool) error {
	p := &printer{out: out, stream: interactive}
	err := h.Handle(ctx, t, engine.SinkFunc(p.send))
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, engine.ErrReplayed) {
		if errors.Is(err, engine.ErrRateLimited) || !p.saidSomething {
			p.text(engine.PoliteMessage(err, t.Locale))
		}
	}
	return p.finish()
}

// printNotices prints the notices that arrived since the last turn, as a
// block of their own.
func printNotices(out io.Writer, ns *Notices) error {
	lines := ns.take()
	if len(lines) == 0 {
		return nil
	}
	_, err := io.WriteString(out, strings.Join(lines, "\n")+"\n\n")
	return err
}
