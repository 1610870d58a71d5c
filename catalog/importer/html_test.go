package importer

import "testing"

func TestHTMLText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain text  ", "plain text"},
		{"<p>One</p><p>Two</p>", "One\n\nTwo"},
		{"Line<br>next<br/>last", "Line\nnext\nlast"},
		{"<ul><li>A</li><li>B &amp; C</li></ul><p>After</p>", "- A\n- B & C\n\nAfter"},
		{"<b>50</b>% off", "50% off"},
		{"Hello<b> world</b>", "Hello world"},
		{"<p>Keep</p><script>alert('x')</script><style>p{}</style><p>this</p>", "Keep\n\nthis"},
		{"Caf&eacute; &lt;3 &#8364;5 &nbsp;x", "Café <3 €5 x"},
		{"<div><p>  nested   spaces\n\n here </p></div>", "nested spaces here"},
		{"<p>unclosed <i>tag", "unclosed tag"},
		{"<h2>Title</h2>Body", "Title\n\nBody"},
	} {
		if got := htmlText(c.in); got != c.want {
			t.Errorf("htmlText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
