// Package live tells every replica's admin panel what changed in the
// inbox, through the database and never through process memory.
//
// Triggers (migration 0024; on Postgres once per statement since 0036,
// one event per message still) append a row to inbox_events whenever a
// shopper, the assistant or staff writes in a conversation, a note is
// added, or its status, assignee, takeover or needs-human flag changes,
// in the transaction that makes the change. A Hub wakes its subscribers
// when new rows may be there: on Postgres a LISTEN on shopbot_inbox (the
// triggers NOTIFY it) with a slow poll as a safety net, on SQLite a poll
// of the newest id. Subscribers (the panel's SSE stream) then read the
// rows after the last id they showed with Since, so a missed wake-up
// delays an update but never loses it.
package live
