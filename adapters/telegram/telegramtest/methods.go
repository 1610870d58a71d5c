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
	case "createInvoiceLink":
		return 200, s.invoiceLink(), nil
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
	if method == "sendInvoice" || method == "createInvoiceLink" {
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

// invoiceLink is a new link as createInvoiceLink answers it: a fresh
// "https://t.me/$…" slug on every call, as Telegram makes one per call.
func (s *Server) invoiceLink() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.links++
	return fmt.Sprintf("https://t.me/$TestInvoice%04dAbCd", s.links)
}

// message is a sent message as it stands after any edits.
type message struct {
	text   string // the text, or a photo's caption
	photo  bool
	markup string // reply_markup JSON, "" for none
}

func (s *Server) newMessage(p map[string]string) *models.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	chat := p["chat_id"]
	s.msgID[chat]++
	id := s.msgID[chat]
	_, photo := p["photo"]
	s.messages[chat+"/"+strconv.Itoa(id)] = message{text: p["text"] + p["caption"], photo: photo, markup: p["reply_markup"]}
	return &models.Message{ID: id, Date: int(time.Now().Unix()), Chat: chatOf(chat), From: &s.Bot, Text: p["text"], Caption: p["caption"]}
}

// edit fails like Telegram for a missing message, an unchanged text or
// caption, text edits of a photo and caption edits of a text message.
// An edit without reply_markup removes the keyboard, as in Telegram.
func (s *Server) edit(method string, p map[string]string) (int, any, *Failure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := p["chat_id"] + "/" + p["message_id"]
	old, ok := s.messages[key]
	bad := func(d string) (int, any, *Failure) {
		return 400, nil, &Failure{Code: 400, Description: "Bad Request: " + d}
	}
	if !ok {
		return bad("message to edit not found")
	}
	next := old
	switch method {
	case "editMessageText":
		if old.photo {
			return bad("there is no text in the message to edit")
		}
		next.text, next.markup = p["text"], p["reply_markup"]
	case "editMessageCaption":
		if !old.photo {
			return bad("there is no caption in the message to edit")
		}
		next.text, next.markup = p["caption"], p["reply_markup"]
	case "editMessageReplyMarkup":
		next.markup = p["reply_markup"]
	}
	if next == old && (method != "editMessageText" || p["reply_markup"] == "") {
		return bad("message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message")
	}
	s.messages[key] = next
	id, _ := strconv.Atoi(p["message_id"])
	m := &models.Message{ID: id, Chat: chatOf(p["chat_id"]), Date: int(time.Now().Unix())}
	if next.photo {
		m.Caption = next.text
	} else {
		m.Text = next.text
	}
	return 200, m, nil
}

// Press is u pressing the button with data under message id in chat, as
// Telegram sends it: the callback query carries the message as it stands
// now (its text or photo caption and its inline keyboard). An unknown
// message comes as a bare one.
func (s *Server) Press(u models.User, chat string, id int, data string) models.Update {
	s.mu.Lock()
	m, ok := s.messages[chat+"/"+strconv.Itoa(id)]
	s.mu.Unlock()
	up := Callback(chatOf(chat), u, id, data)
	if !ok {
		return up
	}
	msg := up.CallbackQuery.Message.Message
	msg.From = &s.Bot
	if m.photo {
		msg.Caption = m.text
		msg.Photo = []models.PhotoSize{{FileID: "photo" + strconv.Itoa(id), FileUniqueID: "p" + strconv.Itoa(id), Width: 800, Height: 800}}
	} else {
		msg.Text = m.text
	}
	if m.markup != "" {
		var kb models.InlineKeyboardMarkup
		if err := json.Unmarshal([]byte(m.markup), &kb); err == nil {
			msg.ReplyMarkup = &kb
		}
	}
	return up
}

func chatOf(id string) models.Chat {
	n, _ := strconv.ParseInt(id, 10, 64)
	if n < 0 {
		return models.Chat{ID: n, Type: models.ChatTypeSupergroup, Title: "Group"}
	}
	return models.Chat{ID: n, Type: models.ChatTypePrivate}
}
