// Package browsertest starts the real browser the end-to-end tests drive:
// Debian's chromium, headless, through chromedp, with a fresh profile
// removed when the test ends. The admin panel's tests and the web chat
// widget's test (bot/) share it, so the flags and the clean-up live in one
// place. A missing chromium fails the test (CI installs it); it never
// skips. Production code never imports it.
package browsertest
