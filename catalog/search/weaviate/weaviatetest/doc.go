// Package weaviatetest runs a real Weaviate server for tests, the way
// net/http/httptest runs HTTP servers: the pinned weaviate-server binary
// (v1.35.2, built by .ci/weaviate-server) started on loopback with a
// temporary data directory and free ports, as ../../../../ARCHITECTURE.md
// describes. Production code never imports it.
//
// A test package starts at most one server: its TestMain calls Main, and
// tests call Shared, which starts the server on first use and returns it.
// Stop and Start take the server down and bring it back on the same data
// directory and ports, for outage tests (which must not run in parallel
// with other tests of the package). New starts a server of a test's own,
// for packages with a TestMain of their own.
//
// The binary is SHOPBOT_WEAVIATE_BIN (default
// $HOME/.cache/shopbot/bin/weaviate-server). When it is missing, tests
// that need it are skipped with a loud message — except under CI=true or
// SHOPBOT_REQUIRE_WEAVIATE=1 (set by `make test`), where they fail, so a
// missing server never passes unnoticed.
package weaviatetest
