package openai

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"sync"

	"github.com/openai/openai-go/v3/packages/ssestream"
)

// eventReader reads a completion's server-sent events as the SDK's
// decoder (ssestream.NewDecoder) does, field for field, through a pooled
// buffer. The SDK's decoder allocated a scanner buffer for every stream
// and the data of every event anew: with the model called twice a turn,
// that was a twelfth of what a turn allocated.
//
// The format is the WHATWG event stream's as the SDK reads it: lines end
// in LF or CRLF; "event:" names the event and "data:" lines are joined,
// each followed by a newline; one space after the colon is dropped; a
// blank line ends an event that has data; anything else (comments, id,
// retry) is skipped; an event cut off by the end of the stream is
// dropped.
type eventReader struct {
	body io.ReadCloser
	r    *bufio.Reader
	line []byte // a line longer than r's buffer, assembled
	evt  ssestream.Event
	data []byte // evt.Data, reused: valid until the next call to Next
	err  error
}

// maxEventLine bounds a line, as the SDK's decoder does (32 MB).
const maxEventLine = bufio.MaxScanTokenSize << 9

var errEventLineTooLong = errors.New("stream: event line too long")

var eventBuffers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 4096) }}

func newEventReader(body io.ReadCloser) *eventReader {
	r := eventBuffers.Get().(*bufio.Reader)
	r.Reset(body)
	return &eventReader{body: body, r: r}
}

// Next reads the next event; false at the end of the stream or on an
// error (Err).
func (e *eventReader) Next() bool {
	if e.err != nil || e.r == nil {
		return false
	}
	name, data := "", e.data[:0]
	for {
		line, err := e.readLine()
		if err != nil {
			if err != io.EOF {
				e.err = err
			}
			return false
		}
		if len(line) == 0 {
			if len(data) == 0 {
				name = ""
				continue
			}
			e.data = data
			e.evt = ssestream.Event{Type: name, Data: data}
			return true
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
		switch string(field) {
		case "event":
			name = string(value)
		case "data":
			data = append(append(data, value...), '\n')
		}
	}
}

// readLine returns the next line without its end; a last line without
// one is a line too.
func (e *eventReader) readLine() ([]byte, error) {
	line, err := e.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		e.line = append(e.line[:0], line...)
		for err == bufio.ErrBufferFull {
			if len(e.line) > maxEventLine {
				return nil, errEventLineTooLong
			}
			line, err = e.r.ReadSlice('\n')
			e.line = append(e.line, line...)
		}
		line = e.line
	}
	if err != nil && (err != io.EOF || len(line) == 0) {
		return nil, err
	}
	line = bytes.TrimSuffix(line, []byte("\n"))
	return bytes.TrimSuffix(line, []byte("\r")), nil
}

// Event is the event Next read.
func (e *eventReader) Event() ssestream.Event { return e.evt }

// Err is the read error that ended the stream, if any.
func (e *eventReader) Err() error { return e.err }

// Close closes the body and gives the buffer back.
func (e *eventReader) Close() error {
	if e.r == nil {
		return nil
	}
	e.r.Reset(nil)
	eventBuffers.Put(e.r)
	e.r = nil
	return e.body.Close()
}
