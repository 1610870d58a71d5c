// Package telegramtest is a fake Telegram Bot API server for tests, the
// way net/http/httptest fakes a client's peer: it speaks the real wire
// format (POST /bot<token>/<method> with multipart, form or JSON bodies;
// {"ok":true,"result":…} or {"ok":false,"error_code":…,"description":…}),
// serves getUpdates by long polling from a queue the test pushes updates
// into, validates what real Telegram validates (HTML entities, message and
// caption lengths, callback data of at most 64 bytes, invoice payloads),
// and records every call with its parameters and time so tests can assert
// on what the bot did. Failures can be injected per method or per chat:
// 429 with retry_after, 403 "bot was blocked by the user", 400 "chat not
// found", and 404 for sendMessageDraft on servers without drafts.
//
// Production code never imports it.
package telegramtest
