package openai

import (
	"context"
	"io"
	"net"
	"sync"
)

// copyConn is a connection to the model server whose ReadFrom copies
// through a pooled buffer. net/http writes a request body by copying it
// into the connection once the headers are flushed, and *net.TCPConn's
// ReadFrom, having nothing to splice from a body behind an
// io.LimitedReader, allocated a buffer the size of the body (up to
// 32 KB) for every request: a fifth of all a turn allocated in the engine
// benchmark. Under TLS the transport writes to its tls.Conn, not here; to
// OpenAI itself it speaks HTTP/2, which copies through its own buffers.
type copyConn struct{ net.Conn }

var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

func (c copyConn) ReadFrom(r io.Reader) (int64, error) {
	b := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(b)
	return io.CopyBuffer(writerOnly{c.Conn}, r, *b)
}

// writerOnly hides the connection's own ReadFrom from io.CopyBuffer.
type writerOnly struct{ io.Writer }

// dialCopyConn wraps the connections dial opens in a copyConn.
func dialCopyConn(dial func(ctx context.Context, network, addr string) (net.Conn, error)) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return copyConn{c}, nil
	}
}
