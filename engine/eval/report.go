package eval

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"shopbot/engine/outcome"
)

// Report is the result of a run, scenarios in file order.
type Report struct {
	Results []Result `json:"scenarios"`
	Passed  int      `json:"passed"`
	Total   int      `json:"total"`
}

// Result is one scenario's result: its first failure, and the transcript
// up to it.
type Result struct {
	Name       string `json:"name"`
	Line       int    `json:"line"`
	Passed     bool   `json:"passed"`
	Turn       int    `json:"turn,omitempty"` // the failing turn, from 1
	Failure    string `json:"failure,omitempty"`
	Transcript []Step `json:"transcript,omitempty"`
}

// Step is one turn of a transcript.
type Step struct {
	Turn    int             `json:"turn"`
	Input   string          `json:"input"` // "say: …" or "press: …"
	Outcome outcome.Outcome `json:"outcome"`
	Failure string          `json:"failure,omitempty"`
}

// Summary is the one line a result prints: PASS name, or FAIL name:
// turn K: what was expected and what came.
func (r *Result) Summary() string {
	switch {
	case r.Passed:
		return "PASS " + r.Name
	case r.Turn > 0:
		return fmt.Sprintf("FAIL %s: turn %d: %s", r.Name, r.Turn, r.Failure)
	}
	return fmt.Sprintf("FAIL %s: %s", r.Name, r.Failure)
}

// Write prints one line per scenario, the count passed and, with verbose,
// the transcript of each failure.
func (rep *Report) Write(w io.Writer, verbose bool) error {
	var b strings.Builder
	for i := range rep.Results {
		b.WriteString(rep.Results[i].Summary() + "\n")
	}
	fmt.Fprintf(&b, "passed %d/%d scenarios\n", rep.Passed, rep.Total)
	if verbose {
		for i := range rep.Results {
			if r := &rep.Results[i]; !r.Passed {
				r.writeTranscript(&b)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON writes the report as JSON; transcripts (of failures) only
// with verbose, as Write.
func (rep *Report) WriteJSON(w io.Writer, verbose bool) error {
	out := *rep
	out.Results = make([]Result, len(rep.Results))
	for i, r := range rep.Results {
		if r.Passed || !verbose {
			r.Transcript = nil
		}
		out.Results[i] = r
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func (r *Result) writeTranscript(b *strings.Builder) {
	fmt.Fprintf(b, "\n--- FAIL %s (line %d)\n", r.Name, r.Line)
	for _, s := range r.Transcript {
		o := s.Outcome
		fmt.Fprintf(b, "turn %d > %s\n", s.Turn, s.Input)
		for _, line := range strings.Split(o.Reply, "\n") {
			fmt.Fprintf(b, "  | %s\n", line)
		}
		for _, p := range o.Products {
			fmt.Fprintf(b, "  product %s · %s · %s\n", p.SKU, p.Title, p.PriceText)
		}
		for _, c := range o.Tools {
			fmt.Fprintf(b, "  tool %s %s\n", c.Name, c.Arguments)
		}
		fmt.Fprintf(b, "  model calls %d · cart %s", o.ModelCalls, cartText(o.Cart))
		if o.Order != "" {
			fmt.Fprintf(b, " · order %s placed", o.Order)
		}
		b.WriteByte('\n')
		if o.Error != "" {
			fmt.Fprintf(b, "  error: %s\n", o.Error)
		}
		if s.Failure != "" {
			fmt.Fprintf(b, "  ✗ %s\n", s.Failure)
		}
	}
}
