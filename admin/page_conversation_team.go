package admin

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"shopbot/catalog"
	"shopbot/catalog/team"
)

// teamPanel is the team's side of a transcript: status, assignee,
// labels, private notes, and the canned replies the reply box expands.
type teamPanel struct {
	Workflow *catalog.Workflow
	Status   catalog.ConversationStatus // effective now (a snooze that ran out is open)
	Statuses []catalog.ConversationStatus
	Staff    []team.StaffUser // who it can be assigned to (enabled users)
	Canned   []team.CannedReply
	CSAT     *team.CSAT // the shopper's rating after a resolution, if asked
}

// Assigned reports whether the conversation is assigned to user id.
func (p *teamPanel) Assigned(id int64) bool {
	return p.Workflow.AssigneeID != nil && *p.Workflow.AssigneeID == id
}

func (s *Server) teamPanel(ctx context.Context, convID int64) (*teamPanel, error) {
	w, err := catalog.GetWorkflow(ctx, s.db, convID)
	if err != nil {
		return nil, err
	}
	p := &teamPanel{Workflow: w, Status: w.Effective(s.cfg.Now()), Statuses: catalog.ConversationStatuses}
	users, err := team.ListStaffUsers(ctx, s.db)
	if err != nil {
		return nil, err
	}
	for _, u := range users {
		if !u.Disabled() {
			p.Staff = append(p.Staff, u)
		}
	}
	if p.Canned, err = team.ListCannedReplies(ctx, s.db); err != nil {
		return nil, err
	}
	if p.CSAT, err = team.GetCSAT(ctx, s.db, convID); err != nil {
		return nil, err
	}
	return p, nil
}

// teamAction runs a workflow change on the conversation of the path and
// goes back to it with msg; a catalog.ErrInvalid becomes a 400 with
// invalid as its message.
func (s *Server) teamAction(w http.ResponseWriter, r *http.Request, invalid string, change func(ctx context.Context, conv *catalog.Conversation) (string, error)) {
	conv, err := conversationByID(r.Context(), s.db, r.PathValue("id"))
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	msg, err := change(r.Context(), conv)
	if errors.Is(err, catalog.ErrInvalid) {
		err = badRequest("%s", invalid)
	}
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	redirect(w, r, fmt.Sprintf("/admin/conversations/%d", conv.ID), msg)
}

// snoozeLayout is the datetime-local input's format (UTC).
const snoozeLayout = "2006-01-02T15:04"

func (s *Server) setConversationStatus(w http.ResponseWriter, r *http.Request) {
	s.teamAction(w, r, "Choose open, pending, snoozed (with a time in the future) or resolved.", func(ctx context.Context, conv *catalog.Conversation) (string, error) {
		st := catalog.ConversationStatus(r.PostFormValue("status"))
		var until *time.Time
		if st == catalog.ConvSnoozed {
			t, err := time.Parse(snoozeLayout, strings.TrimSpace(r.PostFormValue("until")))
			if err != nil {
				return "", catalog.ErrInvalid
			}
			until = &t
		}
		if st == catalog.ConvResolved {
			return s.resolveConversation(ctx, conv)
		}
		if err := catalog.SetConversationStatus(ctx, s.db, conv.ID, st, until, s.cfg.Now()); err != nil {
			return "", err
		}
		return "The conversation is " + string(st) + ".", nil
	})
}

func (s *Server) assignConversation(w http.ResponseWriter, r *http.Request) {
	s.teamAction(w, r, "Choose an active staff member, or no one.", func(ctx context.Context, conv *catalog.Conversation) (string, error) {
		var who *int64
		switch v := r.PostFormValue("assignee"); v {
		case "":
		case "me":
			id := sessionFrom(ctx).UserID
			who = &id
		default:
			id, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return "", catalog.ErrInvalid
			}
			who = &id
		}
		if err := team.AssignConversation(ctx, s.db, conv.ID, who); err != nil {
			return "", err
		}
		if who == nil {
			return "The conversation is assigned to no one.", nil
		}
		return "The conversation is assigned.", nil
	})
}

func (s *Server) addConversationLabel(w http.ResponseWriter, r *http.Request) {
	s.teamAction(w, r, "A label is 1–32 letters, digits, - or _.", func(ctx context.Context, conv *catalog.Conversation) (string, error) {
		return "Label added.", catalog.AddConversationLabel(ctx, s.db, conv.ID, r.PostFormValue("label"))
	})
}

func (s *Server) removeConversationLabel(w http.ResponseWriter, r *http.Request) {
	s.teamAction(w, r, "", func(ctx context.Context, conv *catalog.Conversation) (string, error) {
		return "Label removed.", catalog.RemoveConversationLabel(ctx, s.db, conv.ID, r.PathValue("label"))
	})
}

// addConversationNote stores a private note: it is never sent to the
// shopper, on any channel (it does not go through the notifier, and the
// transcript the model reads does not contain it).
func (s *Server) addConversationNote(w http.ResponseWriter, r *http.Request) {
	s.teamAction(w, r, "A note must be 1 to 4,000 characters.", func(ctx context.Context, conv *catalog.Conversation) (string, error) {
		sess := sessionFrom(ctx)
		n := &catalog.ConversationNote{ConversationID: conv.ID, AuthorID: &sess.UserID, Author: sess.Username, Body: r.PostFormValue("body"), CreatedAt: s.cfg.Now()}
		return "Note added (only the team sees it).", catalog.AddConversationNote(ctx, s.db, n)
	})
}

// expandCanned replaces a reply that starts with "/shortcut" by that
// canned reply, filled with the conversation's shopper (name, newest
// order, cart), and keeps any text after the shortcut. A "/word" that is
// no shortcut is an error, so a typo is not sent to the shopper.
func (s *Server) expandCanned(ctx context.Context, conv *catalog.Conversation, text string) (string, error) {
	if !strings.HasPrefix(text, "/") {
		return text, nil
	}
	word, rest, _ := strings.Cut(text, " ")
	c, err := team.FindCannedReply(ctx, s.db, word)
	if errors.Is(err, catalog.ErrNotFound) {
		return "", badRequest("There is no canned reply %s; nothing was sent.", word)
	}
	if err != nil {
		return "", err
	}
	var v team.CannedValues
	if conv.CustomerID != nil {
		if v, err = team.CannedValuesFor(ctx, s.db, *conv.CustomerID); err != nil && !errors.Is(err, catalog.ErrNotFound) {
			return "", err
		}
	}
	out := v.Fill(c.Body)
	if rest = strings.TrimSpace(rest); rest != "" {
		out += " " + rest
	}
	return out, nil
}
