package browsertest

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Options shape the browser a test starts.
type Options struct {
	// Timeout bounds everything the test does in the browser (default
	// two minutes).
	Timeout time.Duration
	// Width and Height are the window's size (default 1280×900).
	Width, Height int
}

// Start starts chromium headless with a fresh profile and returns the
// context of its first tab: pass it to chromedp.Run, chromedp.ListenTarget
// or chromedp.NewContext (another tab). Everything is stopped and the
// profile removed when the test ends.
func Start(t testing.TB, o Options) context.Context {
	t.Helper()
	exe, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("chromium not found: install it (apt-get install chromium) — the end-to-end tests need a real browser")
	}
	if o.Timeout <= 0 {
		o.Timeout = 2 * time.Minute
	}
	if o.Width <= 0 || o.Height <= 0 {
		o.Width, o.Height = 1280, 900
	}
	// A fresh profile, removed after the browser has gone (chromium's
	// helpers may still write to it while t.TempDir would clean up).
	profile, err := os.MkdirTemp("", "shopbot-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe), chromedp.UserDataDir(profile), chromedp.WindowSize(o.Width, o.Height),
		chromedp.Flag("headless", true), chromedp.Flag("no-sandbox", true), chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true), chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx, chromedp.WithLogf(t.Logf))
	ctx, cancelTimeout := context.WithTimeout(ctx, o.Timeout)
	t.Cleanup(func() {
		cancelTimeout()
		cancelCtx()
		cancelAlloc()
		for i := 0; i < 20 && os.RemoveAll(profile) != nil; i++ {
			time.Sleep(50 * time.Millisecond) // chromium's helpers may still be exiting
		}
	})
	if err := chromedp.Run(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}
