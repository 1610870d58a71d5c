// Package toolstest builds what the tests of the engine and the offline
// planner start from: the demo shop on a copy of a database that holds it
// (catalogtest's demo copies), the tools over it, and one shopper's
// session, on a fixed clock. Production code never imports it. (The tools
// package's own tests keep an internal copy: they cannot import a package
// that imports tools.)
package toolstest
