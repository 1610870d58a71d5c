// Package chatlock serializes the turns of one chat across every shopbot
// process that shares a Postgres database, so replicas behind a load
// balancer answer a chat's messages in order whichever of them receives
// each one.
//
// A Locks holds a Postgres session advisory lock per chat for the whole
// turn, multiplexed on a few long-lived sessions of its own so that
// thousands of chats waiting on their model cost a handful of
// connections and never hold up the catalog's pool. bot/ opens one Locks
// on Postgres and hands it to the engine as its engine.ChatLocker;
// SQLite has a single process, where the engine's in-process locks
// suffice.
//
// The package knows nothing of the domain: a chat is an opaque key
// (channel, chat and thread joined by the engine), hashed into the lock
// space kept apart from the migrator's lock.
package chatlock
