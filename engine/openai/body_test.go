package openai

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"strings"
	"sync"
	"testing"

	"shopbot/engine/llmtest"
)

// TestOpenAIBodiesReusedIntact: request bodies are reused across calls,
// and no call ever sends another's: concurrent calls, each with its own
// long history, get answers built from their own message.
func TestOpenAIBodiesReusedIntact(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.SetResponder(func(r llmtest.Request) llmtest.Step {
		last := r.Messages[len(r.Messages)-1].Content
		return llmtest.Reply("echo " + last[:min(len(last), 40)])
	})
	o, _ := newTestOpenAI(t, srv, Config{})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 25 {
				text := fmt.Sprintf("call %d-%d %s", g, i, strings.Repeat("x", 1000*(1+i%7)))
				resp, err := o.Chat(context.Background(), userAsks(text), nil)
				if err != nil {
					t.Error(err)
					return
				}
				if want := "echo " + text[:40]; resp.Text != want {
					t.Errorf("call %d-%d answered %q, want %q", g, i, resp.Text, want)
				}
			}
		})
	}
	wg.Wait()
}

// TestBodyWritesWhileStillWriting: a server that answers before reading
// the body leaves the transport writing it after the response is back;
// such a body must not be reused. One read to the end may be.
func TestBodyWritesWhileStillWriting(t *testing.T) {
	release := make(chan struct{})
	early := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		w.(http.Flusher).Flush()
		<-release // never reads the body
	}))
	defer early.Close()
	defer close(release)
	var writes bodyWrites
	// Larger than loopback's socket buffers: the write cannot finish
	// while the server does not read.
	req, err := http.NewRequestWithContext(writes.trace(context.Background()), http.MethodPost, early.URL, bytes.NewReader(make([]byte, 64<<20)))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := early.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if writes.done() {
		t.Fatal("the body counts as sent while the transport is still writing it")
	}

	reads := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b bytes.Buffer
		_, _ = b.ReadFrom(r.Body)
		fmt.Fprint(w, b.Len())
	}))
	defer reads.Close()
	var sent bodyWrites
	// The answer can be back before the transport's writer has reported
	// the write (WroteRequest), so the test waits for that report: a hook
	// traced before sent's, which httptrace calls after sent's own.
	wrote := make(chan struct{})
	ctx := httptrace.WithClientTrace(context.Background(), &httptrace.ClientTrace{
		WroteRequest: func(httptrace.WroteRequestInfo) { close(wrote) },
	})
	req, err = http.NewRequestWithContext(sent.trace(ctx), http.MethodPost, reads.URL, bytes.NewReader(make([]byte, 1<<20)))
	if err != nil {
		t.Fatal(err)
	}
	if resp, err = reads.Client().Do(req); err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	<-wrote
	if !sent.done() {
		t.Fatal("a body the server read to the end does not count as sent")
	}
}
