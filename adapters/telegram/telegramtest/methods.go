package telegramtest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"
)

// chatMethods are the methods addressed to a chat, where per-chat
// failures apply.
var chatMethods = map[string]bool{
	"sendMessage": true, "sendPhoto": true, "sendMediaGroup": true, "editMessageText": true,
	"editMessageCaption": true, "editMessageReplyMarkup": true, "sendChatAction": true,
	"sendInvoice": true, "sendMessageDraft": true,
}

// answer produces a method's result or failure.
func (s *Server) answer(method string, p map[string]string) (int, any, *Failure) {
	if f := s.injectedFailure(method, p["chat_id"]); f != nil {
		return f.Code, nil, f
	}
	if f := validate(method, p); f != nil {
		return f.Code, nil, f
	}
	switch method {
	case "getMe":
		return 200, s.Bot, nil
	case "sendMessage", "sendPhoto", "sendInvoice":
		return 200, s.newMessage(p), nil
	case "editMessageText", "editMessageCaption", "editMessageReplyMarkup":
		return s.edit(method, p)
	case "sendMessageDraft":
		s.mu.Lock()
		no := s.noDrafts
		s.mu.Unlock()
		if no {
			return 404, nil, &NotFound
		}
		return 200, true, nil
	case "answerCallbackQuery", "answerPreCheckoutQuery", "setMyCommands", "setWebhook",
		"deleteWebhook", "sendChatAction":
		return 200, true, nil
	default:
		return 404, nil, &NotFound
	}
}

func (s *Server) injectedFailure(method, chatID string) *Failure {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, in := range s.fails {
		if in.times == 0 || in.method != method && in.method != "*" {
			continue
		}
		if in.chatID != "" && (in.chatID != chatID || !chatMethods[method]) {
			continue
		}
		if in.times > 0 {
			in.times--
		}
		f := in.f
		return &f
	}
	return nil
}

// validate checks what Telegram checks before doing anything.
func validate(method string, p map[string]string) *Failure {
	bad := func(format string, args ...any) *Failure {
		return &Failure{Code: 400, Description: "Bad Request: " + fmt.Sprintf(format, args...)}
	}
	if chatMethods[method] && p["chat_id"] == "" {
		return bad("chat_id is empty")
	}
	for _, field := range []struct {
		name  string
		limit int
		what  string
	}{{"text", 4096, "message is too long"}, {"caption", 1024, "message caption is too long"}} {
		v, ok := p[field.name]
		if !ok {
			continue
		}
		visible := v
		if p["parse_mode"] == "HTML" {
			var err error
			if visible, err = ParseHTML(v); err != nil {
				return bad("%v", err)
			}
		}
		if n := Length(visible); n > field.limit {
			return bad("%s", field.what)
		}
		if field.name == "text" && strings.TrimSpace(visible) == "" && method != "sendMessageDraft" {
			return bad("message text is empty")
		}
	}
	if rm := p["reply_markup"]; rm != "" {
		if f := validateMarkup(rm); f != nil {
			return f
		}
	}
	if method == "sendInvoice" {
		return validateInvoice(p)
	}
	return nil
}

func validateMarkup(raw string) *Failure {
	var m struct {
		InlineKeyboard [][]struct {
			models.InlineKeyboardButton
			CopyText *struct {
				Text string `json:"text"`
			} `json:"copy_text"`
		} `json:"inline_keyboard"`
	}
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		return &Failure{Code: 400, Description: "Bad Request: can't parse reply keyboard markup JSON object"}
	}
	for _, row := range m.InlineKeyboard {
		for _, b := range row {
			if b.Text == "" {
				return &Failure{Code: 400, Description: "Bad Request: text buttons are unallowed in the inline keyboard"}
			}
			if b.CopyText != nil && b.CopyText.Text == "" {
				return &Failure{Code: 400, Description: "Bad Request: BUTTON_COPY_TEXT_INVALID"}
			}
			if len(b.CallbackData) > 64 || b.CallbackData == "" && b.URL == "" {
				return &Failure{Code: 400, Description: "Bad Request: BUTTON_DATA_INVALID"}
			}
		}
	}
	return nil
}

func validateInvoice(p map[string]string) *Failure {
	if n := len(p["payload"]); n < 1 || n > 128 {
		return &Failure{Code: 400, Description: "Bad Request: INVOICE_PAYLOAD_INVALID"}
	}
	var prices []models.LabeledPrice
	if err := json.Unmarshal([]byte(p["prices"]), &prices); err != nil || len(prices) == 0 {
		return &Failure{Code: 400, Description: "Bad Request: can't parse prices JSON object"}
	}
	if len(p["currency"]) != 3 || p["title"] == "" || p["description"] == "" {
		return &Failure{Code: 400, Description: "Bad Request: invoice title, description and currency are required"}
	}
	return nil
}

func (s *Server) newMessage(p map[string]string) *models.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	chat := p["chat_id"]
	s.msgID[chat]++
	id := s.msgID[chat]
	s.messages[chat+"/"+strconv.Itoa(id)] = p["text"] + p["caption"]
	return &models.Message{ID: id, Date: int(time.Now().Unix()), Chat: chatOf(chat), From: &s.Bot, Text: p["text"], Caption: p["caption"]}
}

// edit fails like Telegram for a missing message or an unchanged text.
func (s *Server) edit(method string, p map[string]string) (int, any, *Failure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := p["chat_id"] + "/" + p["message_id"]
	old, ok := s.messages[key]
	if !ok {
		return 400, nil, &Failure{Code: 400, Description: "Bad Request: message to edit not found"}
	}
	if method == "editMessageText" {
		if old == p["text"] && p["reply_markup"] == "" {
			return 400, nil, &Failure{Code: 400, Description: "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message"}
		}
		s.messages[key] = p["text"]
	}
	id, _ := strconv.Atoi(p["message_id"])
	return 200, &models.Message{ID: id, Chat: chatOf(p["chat_id"]), Text: p["text"], Date: int(time.Now().Unix())}, nil
}

func chatOf(id string) models.Chat {
	n, _ := strconv.ParseInt(id, 10, 64)
	if n < 0 {
		return models.Chat{ID: n, Type: models.ChatTypeSupergroup, Title: "Group"}
	}
	return models.Chat{ID: n, Type: models.ChatTypePrivate}
}
