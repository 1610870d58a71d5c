// Package inbox is the update lifecycle every chat adapter shares
// (Telegram, Slack): an update is recorded before it is acknowledged,
// recognised when redelivered, run in its chat's order, marked handled
// when its turn ends, resumed at the next start if it did not, and
// forgotten a week after it was handled. It also remembers each chat's
// cart message, which the adapters edit in place.
//
// How an update flows:
//
//  1. The adapter verifies the request, decodes it and builds its key (a
//     Telegram update_id, a Slack event_id or trigger_id) and calls
//     Inbox.Record (inbox.go). The row goes to the inbox table with the
//     others that arrive meanwhile, in one INSERT ... ON CONFLICT DO
//     NOTHING RETURNING key (a groupcommit.Batcher), which tells which are
//     new; only then does the adapter acknowledge (HTTP 200, the
//     getUpdates offset). The writer — not the request, which may have
//     given up — hands each new update to the adapter's fresh callback,
//     so whatever is recorded is also queued.
//  2. The adapter pushes the update's Job onto its Queue (queue.go) under
//     the chat's key. A chat's jobs run one at a time in the order of the
//     Seq the adapter gives; chats run in parallel, at most Workers at
//     once, with at most PerKey waiting per chat.
//  3. When the turn has run to its end the adapter calls Inbox.Done; the
//     marks are written in groups too. A turn cut short by shutdown is not
//     marked and stays unhandled.
//  4. At start the adapter lists Unhandled (resume.go), oldest first,
//     decodes each by its Kind and queues it again before it takes new
//     requests; the engine de-duplicates a turn by its key, so a resumed
//     turn places no second order. PruneDaily forgets handled updates
//     older than Keep.
//  5. With a Lease (NewLeased, lease.go; Telegram) replicas cover for
//     each other: Record claims the update for its replica (claimed_by,
//     lease_until), Cover renews the replica's claims while their turns
//     wait and run, Claim takes the update again as its turn starts (false:
//     another replica has it, do not run), and instead of Unhandled the
//     adapter resumes, at start and every Sweep, what ClaimOrphans takes —
//     updates whose lease ran out (their replica died) or that a stopping
//     replica released (ReleaseAll). One UPDATE ... WHERE lease_until <
//     now claims each orphan for exactly one replica.
//
// The two adapters each had their own copy of this and had drifted; this
// package keeps the better behaviour of each:
//   - group commit for records and for handled marks (Slack's): a burst
//     costs a few statements, where Telegram marked each update alone;
//   - the records writer holds its own connection (Telegram's), so an
//     acknowledgement never waits behind turns for the connection pool;
//   - the writer queues what it recorded (Telegram's), so an update whose
//     webhook request gave up is still handled;
//   - a bounded queue (Slack's per-chat cap of 256 beside the bound on the
//     jobs running at once): a flooding chat cannot grow memory without
//     end; what does not fit stays unhandled and runs at the next start;
//   - order by a sequence within a chat (Telegram's update_id), which
//     Slack's arrival order is the special case of;
//   - dedupe of a job already queued (Telegram's), so a resumed update
//     redelivered at once runs once;
//   - giving up the worker slot while waiting for the pacer (Telegram's);
//   - jobs not started when the process stops are dropped (Telegram's),
//     rather than run with a cancelled context (Slack's): either way they
//     stay unhandled and resume, but dropping does no half work;
//   - one week of handled rows and one table for every source.
//
// Keys are stored as given or refused (ErrBadKey: empty, over 200
// characters, invalid UTF-8 or control characters), since altering one
// could make two requests one; text is stored with invalid UTF-8 as
// U+FFFD, which both databases accept.
//
// The package knows nothing of the shop: it imports bun and
// catalog/groupcommit, never the catalog.
package inbox
