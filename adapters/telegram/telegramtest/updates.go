package telegramtest

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/go-telegram/bot/models"
)

// Push queues an update for getUpdates, numbering it when its ID is 0,
// and returns its update_id.
func (s *Server) Push(u models.Update) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if u.ID == 0 {
		s.nextID++
		u.ID = s.nextID
	}
	s.updates = append(s.updates, u)
	s.notifyLocked()
	return u.ID
}

// NextID numbers an update without queueing it (for webhook tests).
func (s *Server) NextID() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	return s.nextID
}

// Confirmed reports whether a getUpdates offset has acknowledged id.
func (s *Server) Confirmed(id int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.offset > id
}

// Conflict is Telegram's answer to a long poll cut short by another one:
// two bot instances polling at once.
var Conflict = Failure{Code: 409, Description: "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running"}

// Conflicts counts the long polls ended with Conflict because another
// began while they waited.
func (s *Server) Conflicts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conflicts
}

// getUpdates answers a long poll: updates from offset on, waiting up to
// timeout seconds for one to arrive. An offset confirms every earlier
// update, which is then gone for good, as on Telegram. As on Telegram, a
// poll that begins while another waits ends the waiting one with 409
// Conflict.
func (s *Server) getUpdates(w http.ResponseWriter, r *http.Request, p map[string]string) {
	mine := make(chan struct{})
	s.mu.Lock()
	if s.poll != nil {
		close(s.poll)
	}
	s.poll = mine
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if s.poll == mine {
			s.poll = nil
		}
		s.mu.Unlock()
	}()
	offset, _ := strconv.ParseInt(p["offset"], 10, 64)
	timeout, _ := strconv.Atoi(p["timeout"])
	limit, _ := strconv.Atoi(p["limit"])
	if limit <= 0 || limit > 100 {
		limit = 100
	}
	deadline := time.After(time.Duration(min(max(timeout, 0), 50)) * time.Second)
	s.record(Call{Method: "getUpdates", Params: p, Time: time.Now(), Status: 200})
	for {
		s.mu.Lock()
		if offset > s.offset {
			s.offset = offset
		}
		var out []models.Update
		kept := s.updates[:0]
		for _, u := range s.updates {
			if u.ID < s.offset {
				continue
			}
			kept = append(kept, u)
			if len(out) < limit {
				out = append(out, u)
			}
		}
		s.updates = kept
		ch := s.changed
		s.mu.Unlock()
		if len(out) > 0 {
			writeOK(w, out)
			return
		}
		select {
		case <-ch:
		case <-mine:
			s.mu.Lock()
			s.conflicts++
			s.mu.Unlock()
			writeFail(w, Conflict)
			return
		case <-deadline:
			writeOK(w, []models.Update{})
			return
		case <-r.Context().Done():
			return
		}
	}
}

// User is a Telegram user with a first name and a language.
func User(id int64, name string) models.User {
	return models.User{ID: id, FirstName: name, LanguageCode: "en", Username: strings.ToLower(name)}
}

// Text is a private message from u.
func Text(u models.User, text string) models.Update {
	return Chat(models.Chat{ID: u.ID, Type: models.ChatTypePrivate, FirstName: u.FirstName}, u, text)
}

// Group is a message from u in the supergroup chatID (negative).
func Group(chatID int64, u models.User, text string) models.Update {
	return Chat(models.Chat{ID: chatID, Type: models.ChatTypeSupergroup, Title: "Team"}, u, text)
}

var msgSeq atomic.Int64

// Chat is a message from u in chat, with the entities Telegram would mark
// (a leading bot command, @mentions).
func Chat(chat models.Chat, u models.User, text string) models.Update {
	m := &models.Message{ID: int(msgSeq.Add(1)), From: &u, Chat: chat, Date: int(time.Now().Unix()), Text: text}
	if strings.HasPrefix(text, "/") {
		end := strings.IndexAny(text, " \n")
		if end < 0 {
			end = len(text)
		}
		m.Entities = append(m.Entities, models.MessageEntity{Type: models.MessageEntityTypeBotCommand, Offset: 0, Length: utf16Len(text[:end])})
	}
	for i := 0; i < len(text); {
		at := strings.IndexByte(text[i:], '@')
		if at < 0 {
			break
		}
		start := i + at
		end := start + 1
		for end < len(text) && (text[end] == '_' || text[end] >= 'a' && text[end] <= 'z' || text[end] >= 'A' && text[end] <= 'Z' || text[end] >= '0' && text[end] <= '9') {
			end++
		}
		if end-start > 1 && (start == 0 || text[start-1] == ' ') {
			m.Entities = append(m.Entities, models.MessageEntity{Type: models.MessageEntityTypeMention, Offset: utf16Len(text[:start]), Length: utf16Len(text[start:end])})
		}
		i = end
	}
	return models.Update{Message: m}
}

// Reply is a message from u replying to a message of the bot's in chat.
func Reply(chat models.Chat, u models.User, text string, bot models.User, replyTo int) models.Update {
	up := Chat(chat, u, text)
	up.Message.ReplyToMessage = &models.Message{ID: replyTo, From: &bot, Chat: chat, Date: int(time.Now().Unix())}
	return up
}

// Callback is a press of the button with data under the bot's message
// messageID in chat.
func Callback(chat models.Chat, u models.User, messageID int, data string) models.Update {
	return models.Update{CallbackQuery: &models.CallbackQuery{
		ID: "cq" + strconv.FormatInt(msgSeq.Add(1), 10), From: u, Data: data, ChatInstance: "ci" + strconv.FormatInt(chat.ID, 10),
		Message: models.MaybeInaccessibleMessage{
			Type:    models.MaybeInaccessibleMessageTypeMessage,
			Message: &models.Message{ID: messageID, Chat: chat, Date: int(time.Now().Unix())},
		},
	}}
}

// Contact is u sharing their own phone number in a private chat.
func Contact(u models.User, phone string) models.Update {
	up := Text(u, "")
	up.Message.Contact = &models.Contact{PhoneNumber: phone, FirstName: u.FirstName, UserID: u.ID}
	return up
}

// PreCheckout is the query Telegram sends before charging u.
func PreCheckout(u models.User, currency string, total int, payload string) models.Update {
	return models.Update{PreCheckoutQuery: &models.PreCheckoutQuery{
		ID: "pcq" + strconv.FormatInt(msgSeq.Add(1), 10), From: &u, Currency: currency, TotalAmount: total, InvoicePayload: payload,
	}}
}

// Paid is the service message of a successful payment by u.
func Paid(u models.User, currency string, total int, payload, chargeID string) models.Update {
	up := Text(u, "")
	up.Message.SuccessfulPayment = &models.SuccessfulPayment{
		Currency: currency, TotalAmount: total, InvoicePayload: payload,
		TelegramPaymentChargeID: chargeID, ProviderPaymentChargeID: "prov-" + chargeID,
	}
	return up
}

// JSON encodes an update as Telegram posts it to a webhook.
func JSON(u models.Update) []byte {
	b, err := json.Marshal(u)
	if err != nil {
		panic(err) // models.Update always encodes
	}
	return b
}

func utf16Len(s string) int { return Length(s) }
