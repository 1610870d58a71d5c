// Package team is the merchant's people and their work on conversations:
// staff users, their roles, invites and sign-in sessions (staff*.go);
// taking a conversation over, replying as the merchant and handing it
// back (conversations_staff.go); handing a conversation to a person and
// resolving it (support_cases.go), the shopper's rating that follows
// (csat.go); who is online and the round robin that assigns a handoff to
// them (team_roundrobin.go, AssignConversation); each agent's measures
// (team_measures.go) and the canned replies (canned_replies.go).
//
// Functions take a bun.IDB over catalog's tables, so a caller composes
// them with catalog's in one transaction, and report catalog's errors
// (catalog.ErrNotFound, ErrInvalid, ErrConflict). The team's settings
// (round robin, business hours) stay in catalog (team_settings.go,
// team_hours.go) beside the other settings the engine reads; catalog
// does not import team.
package team
