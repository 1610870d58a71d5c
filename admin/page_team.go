package admin

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"shopbot/catalog"
	"shopbot/catalog/team"
	"shopbot/engine/view"
)

// resolveConversation resolves conv for the signed-in member: its
// support case closes (resolution time) and, the first time, the shopper
// gets the 1–5 rating prompt on their channel (team.ResolveConversation
// says when; a conversation already resolved sends nothing again).
func (s *Server) resolveConversation(ctx context.Context, conv *catalog.Conversation) (string, error) {
	ask, err := team.ResolveConversation(ctx, s.db, conv.ID, sessionFrom(ctx).UserID, s.cfg.Now())
	if err != nil || !ask {
		return "The conversation is resolved.", err
	}
	err = s.notifyCSAT(ctx, conv)
	return "The conversation is resolved. Rating prompt: " + s.told(ctx, fmt.Sprintf("rating prompt in conversation %d", conv.ID), conv.Channel, err, "they were not asked to rate"), nil
}

// notifyCSAT sends the shopper the rating prompt (view.NoticeCSAT) in
// their language.
func (s *Server) notifyCSAT(ctx context.Context, conv *catalog.Conversation) error {
	if s.cfg.Notifier == nil {
		return errNoNotifier
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), noticeTimeout)
	defer cancel()
	n := view.Notice{Kind: view.NoticeCSAT, Where: conv.Key(), ConversationID: conv.ID}
	if conv.CustomerID != nil {
		if c, err := catalog.GetCustomer(ctx, s.db, *conv.CustomerID); err == nil {
			n.Customer, n.Locale = c.DisplayName, c.Locale
		}
	}
	return s.cfg.Notifier.Notify(ctx, n)
}

// teamPage is /admin/team: the measures a team is judged by, per staff
// member over a chosen period, and (for the owner) the team's settings.
type teamPage struct {
	From, To   string // the period's days, YYYY-MM-DD, To included
	Measures   []team.AgentMeasures
	Settings   catalog.TeamSettings
	Modes      []catalog.RoundRobin
	Online     int
	CanSetup   bool
	HoursError string
}

// teamDay is the period inputs' layout.
const teamDay = "2006-01-02"

func (s *Server) team(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	now := s.cfg.Now().UTC()
	to, err := time.Parse(teamDay, r.URL.Query().Get("to"))
	if err != nil {
		to = now.Truncate(24 * time.Hour)
	}
	from, err := time.Parse(teamDay, r.URL.Query().Get("from"))
	if err != nil || from.After(to) {
		from = to.AddDate(0, 0, -29)
	}
	p := teamPage{From: from.Format(teamDay), To: to.Format(teamDay), Modes: []catalog.RoundRobin{catalog.RoundRobinOff, catalog.RoundRobinAgents, catalog.RoundRobinStaff},
		CanSetup: sessionFrom(ctx).Role == team.StaffOwner}
	if p.Measures, err = team.TeamMeasures(ctx, s.db, from, to.AddDate(0, 0, 1)); err != nil {
		s.renderError(w, r, err)
		return
	}
	if p.Settings, err = catalog.GetTeamSettings(ctx, s.db); err != nil {
		s.renderError(w, r, err)
		return
	}
	online, err := team.OnlineStaff(ctx, s.db, nil, now)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	p.Online = len(online)
	s.render(w, r, http.StatusOK, "team", "Team", "team", p)
}

// saveTeam stores the team settings (owner): a bad mode or hours text is
// a 400 that says what is wrong and changes nothing.
func (s *Server) saveTeam(w http.ResponseWriter, r *http.Request) {
	rr := catalog.RoundRobin(r.PostFormValue("round_robin"))
	hours := strings.TrimSpace(r.PostFormValue("hours"))
	err := catalog.SaveTeamSettings(r.Context(), s.db, rr, hours, s.cfg.Now())
	if errors.Is(err, catalog.ErrInvalid) {
		err = badRequest("%s", sentence(err))
	}
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	redirect(w, r, "/admin/team", "Team settings saved.")
}
