package admin_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// TestSynonymsAddRemove: a group typed in the panel is stored normalized
// and listed; bad input is shown with the reason and stores nothing; a
// group is removed; a missing one is a 404.
func TestSynonymsAddRemove(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	p.signIn()
	ctx := context.Background()
	if code, body := p.get("/admin/settings/synonyms"); code != http.StatusOK || !strings.Contains(body, "No groups of your own yet") {
		t.Fatalf("empty page = %d:\n%s", code, body)
	}
	code, loc, body := p.post("/admin/settings/synonyms", url.Values{"terms": {"Hoodie, худи ,kangaroo jumper"}})
	if code != http.StatusSeeOther || loc != "/admin/settings/synonyms" {
		t.Fatalf("add = %d %s:\n%s", code, loc, body)
	}
	gs, _ := catalog.ListSynonymGroups(ctx, p.db)
	if len(gs) != 1 || gs[0].Terms != "hoodie, kangaroo jumper, худи" {
		t.Fatalf("groups = %+v", gs)
	}
	if _, body := p.get("/admin/settings/synonyms"); !strings.Contains(body, "hoodie, kangaroo jumper, худи") {
		t.Errorf("the list lacks the group:\n%s", body)
	}
	for name, terms := range map[string]string{"one term": "hoodie", "no letters": "hoodie, !!!", "empty": ""} {
		code, _, body := p.post("/admin/settings/synonyms", url.Values{"terms": {terms}})
		if code != http.StatusBadRequest || !strings.Contains(body, `id="synonyms-error"`) {
			t.Errorf("%s: %d:\n%s", name, code, body)
		}
	}
	if gs, _ := catalog.ListSynonymGroups(ctx, p.db); len(gs) != 1 {
		t.Errorf("bad input stored a group: %+v", gs)
	}
	if code, _, _ := p.post("/admin/settings/synonyms", url.Values{"delete": {"999"}}); code != http.StatusNotFound {
		t.Errorf("removing a missing group = %d", code)
	}
	if code, _, _ := p.post("/admin/settings/synonyms", url.Values{"delete": {strconv.FormatInt(gs[0].ID, 10)}}); code != http.StatusSeeOther {
		t.Errorf("remove = %d", code)
	}
	if gs, _ := catalog.ListSynonymGroups(ctx, p.db); len(gs) != 0 {
		t.Errorf("after remove: %+v", gs)
	}
}
