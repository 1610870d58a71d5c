package tools

import (
	"context"
	"encoding/json"
	"shopbot/engine/toolkit"
	"strings"
	"unicode/utf8"

	"shopbot/catalog"
	"shopbot/catalog/search"
	"shopbot/engine/session"
)

const (
	// shopInfoPassages is how many passages the model reads: enough for a
	// question that spans two sections, few enough to stay on topic.
	shopInfoPassages = 3
	// shopInfoTextMax bounds each passage's text, in characters.
	shopInfoTextMax = 700
	// shopInfoNone is what the model reads when no page covers a question.
	shopInfoNone = "No shop page covers this. Say you do not know and offer a person (request_human); do not guess."
	// shopInfoNote reminds the model where its answer must come from.
	shopInfoNote = "Answer only from these passages and name the page; if they do not answer the question, say you do not know."
)

// ShopInfo is search_shop_info's result, as the model reads it.
type ShopInfo struct {
	Passages []ShopPassage `json:"passages"`
	Note     string        `json:"note"`
}

// ShopPassage is one passage of a shop page.
type ShopPassage struct {
	Page    string `json:"page"` // the page's title
	Slug    string `json:"slug"`
	Heading string `json:"heading,omitempty"`
	Text    string `json:"text"`
}

type shopInfoArgs struct {
	Query string `json:"query"`
}

func searchShopInfoTool(d *Deps) toolkit.Tool {
	return toolkit.Tool{
		Name:        "search_shop_info",
		Description: "Search the shop's pages: returns, shipping, payment, warranty, contact, about.",
		Schema:      object(map[string]any{"query": str("e.g. 'return policy'", 200)}, "query"),
		Run: func(ctx context.Context, s *session.Session, raw json.RawMessage) (toolkit.Result, error) {
			var a shopInfoArgs
			if err := toolkit.DecodeArgs(raw, &a); err != nil {
				return toolkit.Result{}, err
			}
			info, err := SearchShopInfo(ctx, d.Passages, a.Query)
			if err != nil {
				return toolkit.Result{}, err
			}
			return toolkit.Result{Data: info}, nil
		},
	}
}

// SearchShopInfo finds the passages of the shop's pages that answer query,
// bounded for the model; the offline planner calls it too.
func SearchShopInfo(ctx context.Context, ps toolkit.PassageSearcher, query string) (ShopInfo, error) {
	query = strings.Join(strings.Fields(query), " ")
	switch {
	case utf8.RuneCountInString(query) < 2:
		return ShopInfo{}, toolkit.Errorf("query: say what to look up, e.g. 'return policy'")
	case ps == nil:
		return ShopInfo{}, toolkit.Errorf("the shop's pages cannot be searched here; offer a person instead")
	}
	found, err := ps.SearchPassages(ctx, search.PassageQuery{Kind: catalog.PassagePage, Text: query, Limit: shopInfoPassages})
	if err != nil {
		return ShopInfo{}, err
	}
	info := ShopInfo{Passages: []ShopPassage{}, Note: shopInfoNote}
	for _, p := range found {
		info.Passages = append(info.Passages, ShopPassage{Page: p.Title, Slug: p.Ref, Heading: p.Heading, Text: clipPassage(p.Text, shopInfoTextMax)})
	}
	if len(info.Passages) == 0 {
		info.Note = shopInfoNone
	}
	return info, nil
}

// clipPassage keeps a passage's lines (lists read as lists) but no blank
// runs, within n characters.
func clipPassage(s string, n int) string {
	var lines []string
	for l := range strings.SplitSeq(s, "\n") {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			lines = append(lines, l)
		}
	}
	s = strings.Join(lines, "\n")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
