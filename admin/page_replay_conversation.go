package admin

import (
	"fmt"
	"net/http"
)

// replayConversationView is /admin/conversations/{id}/replay: each turn
// of the conversation then and now, side by side, the parts that changed
// marked.
type replayConversationView struct {
	ID      int64
	Turns   []replayRow
	Changed int
}

// replayRow is a turn with its two cells, each knowing what is marked.
type replayRow struct {
	ReplayTurn
	ThenCell, NowCell replayCell
}

type replayCell struct {
	Turn ReplayTurn
	Side ReplaySide
}

func (s *Server) replayConversation(w http.ResponseWriter, r *http.Request) {
	conv, err := conversationByID(r.Context(), s.db, r.PathValue("id"))
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	if s.cfg.Replayer == nil {
		s.renderError(w, r, badRequest("Replay is not available in this process."))
		return
	}
	turns, err := s.cfg.Replayer.Conversation(r.Context(), conv.ID)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	v := replayConversationView{ID: conv.ID}
	for _, t := range turns {
		v.Turns = append(v.Turns, replayRow{ReplayTurn: t, ThenCell: replayCell{t, t.Then}, NowCell: replayCell{t, t.Now}})
		if len(t.Changed) > 0 || t.Error != "" {
			v.Changed++
		}
	}
	s.render(w, r, http.StatusOK, "replay_conversation", fmt.Sprintf("Replay of conversation %d", conv.ID), "conversations", v)
}
