// Package slackfake is a fake Slack Web API for tests: an httptest server
// speaking Slack's wire format — form-encoded or JSON requests with a bot
// token, {"ok":true,…} or {"ok":false,"error":"…"} answers, 429 with a
// Retry-After header — that records every call and keeps the messages it
// was asked to post, update and stream, so tests can read a channel or a
// thread the way a Slack user would see it.
//
// Socket Mode works too: apps.connections.open (with AppToken) returns a
// WebSocket URL on the fake, which says hello, delivers the envelopes
// passed to SocketSend and records the app's acks.
//
// It checks what the real API rejects: a wrong token (invalid_auth), more
// than 50 blocks, a section text over 3,000 characters or a button value
// over 2,000, a block_id or action_id used twice in a message
// (invalid_blocks), a text over 40,000 characters
// (msg_too_long), a static_select without options, with more than 100,
// an option text over 75 characters or a value over 150 or repeated.
// SelectAction builds the block_actions entry of a member's choice in a
// select menu, FindSelect finds the menu offering a value (selects.go).
// Production code never imports it.
package slackfake
