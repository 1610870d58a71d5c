// Package servetest holds what the tests of `shopbot serve` share, whether
// they run it inside the test process (package main's tests in bot/) or
// as a child process (bot/processtest): an output buffer safe to read
// while the server writes it, the patterns of the startup banner (the
// address, a generated admin password), the checks that replicas started
// together loaded the demo catalog and made the admin user exactly once,
// and signing in to the admin panel.
//
// Like net/http/httptest it is for tests only; production code never
// imports it.
package servetest
