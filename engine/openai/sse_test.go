package openai

import (
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3/packages/ssestream"
)

// TestEventReaderReadsAsTheSDK: eventReader splits a stream into the same
// events, and ends it the same way, as the SDK's own decoder, on the
// shapes servers send: CRLF, comments, named events, data over several
// lines, lines longer than its buffer, a last event cut off.
func TestEventReaderReadsAsTheSDK(t *testing.T) {
	long := strings.Repeat("x", 10_000)
	for _, in := range []string{
		"data: {\"a\":1}\n\ndata: [DONE]\n\n",
		"data: {\"a\":1}\r\n\r\ndata:{\"b\":2}\r\n\r\n",
		": keep-alive\n\ndata: one\ndata: two\n\n\n\nevent: error\ndata: {\"error\":{}}\n\n",
		"id: 7\nretry: 100\ndata:  two spaces\ndata\nevent\n\n",
		"data: " + long + "\n\ndata: " + long + long + "\r\n\r\n",
		"data: last\n\ndata: cut off",
		"data: cut off\n",
		"",
		"\n\n\n",
		"event: only a name\n\ndata: after\n\n",
	} {
		want := readAll(ssestream.NewDecoder(&http.Response{Body: io.NopCloser(strings.NewReader(in))}))
		got := readAll(newEventReader(io.NopCloser(strings.NewReader(in))))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%.60q:\n got %q\nwant %q", in, got, want)
		}
	}
}

// TestEventReaderStopsOnReadErrors: a broken connection ends the stream
// with its error, and a line past the SDK's bound with an error of its
// own, never with a half event.
func TestEventReaderStopsOnReadErrors(t *testing.T) {
	broken := errors.New("connection reset")
	e := newEventReader(io.NopCloser(io.MultiReader(strings.NewReader("data: a\n\ndata: b"), errReader{broken})))
	if got := readAll(e); len(got) != 2 || got[0] != "|a\n" || got[1] != "err: connection reset" {
		t.Errorf("broken stream read as %q", got)
	}
	huge := io.MultiReader(strings.NewReader("data: "), io.LimitReader(zeros{}, maxEventLine+10_000))
	if got := readAll(newEventReader(io.NopCloser(huge))); len(got) != 1 || got[0] != "err: "+errEventLineTooLong.Error() {
		t.Errorf("an endless line read as %.80q", got)
	}
}

// readAll lists a decoder's events as "type|data" and its error.
func readAll(d ssestream.Decoder) []string {
	var out []string
	for d.Next() {
		ev := d.Event()
		out = append(out, ev.Type+"|"+string(ev.Data))
	}
	if err := d.Err(); err != nil {
		out = append(out, "err: "+err.Error())
	}
	_ = d.Close()
	return out
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'z'
	}
	return len(p), nil
}
