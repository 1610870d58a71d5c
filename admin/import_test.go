package admin_test

import (
	"bytes"
	"context"
	"fmt"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// upload posts a file to the import form and returns the job page's path.
func (p *panel) upload(name, body string) string {
	p.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.WriteField("csrf", p.csrf)
	fw, _ := mw.CreateFormFile("file", name)
	fw.Write([]byte(body))
	mw.Close()
	req, _ := http.NewRequest("POST", p.srv.URL+"/admin/import", &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp, err := p.client.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	resp.Body.Close()
	loc := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/admin/import/") {
		p.t.Fatalf("upload = %d → %s", resp.StatusCode, loc)
	}
	return loc
}

// twoReplicas runs fn with two panels on one database (two connection
// pools, as two shopbot processes), on SQLite and on Postgres.
func twoReplicas(t *testing.T, fn func(t *testing.T, a, b *panel)) {
	catalogtest.EachReplicas(t, 2, func(t *testing.T, dbs []*bun.DB) {
		fn(t, newPanel(t, dbs[0]), newPanel(t, dbs[1]))
	})
}

// badCSV is n rows that fail on their stock cell, then one good row.
func badCSV(n int, cell string) string {
	var b strings.Builder
	b.WriteString("sku,title,price,stock\n")
	for i := range n {
		fmt.Fprintf(&b, "BAD-%d,Bad %d,1.00,\"%s\"\n", i, i, strings.ReplaceAll(cell, `"`, `""`))
	}
	b.WriteString("GOOD-1,Good,1.00,3\n")
	return b.String()
}

// TestImportJobOnAnotherReplica: a file uploaded to one replica is
// imported there; the other replica shows the job's result and lists it,
// reading only the database. 5,000 bad rows show the first 1,000 and
// "… and 4000 more errors", and the page stays under 1 MB even when every
// cell is made of characters HTML escaping makes longer.
func TestImportJobOnAnotherReplica(t *testing.T) {
	twoReplicas(t, func(t *testing.T, a, b *panel) {
		a.signIn()
		b.signIn()
		loc := a.upload("bad.csv", badCSV(5000, strings.Repeat(`"<&'>`, 200)))
		a.admin.WaitImports()
		code, page := b.get(loc)
		if code != http.StatusOK || !strings.Contains(page, "imported 1, updated 0, failed 5000") {
			t.Fatalf("the other replica's job page (%d):\n%.2000s", code, page)
		}
		if n := strings.Count(page, `<td class="num">`); n != 1000 {
			t.Errorf("%d error rows shown, want the first 1000", n)
		}
		if !strings.Contains(page, "BAD-999</td>") || strings.Contains(page, "BAD-1000</td>") ||
			!strings.Contains(page, "… and 4000 more errors") {
			t.Error("the page does not show the first 1000 errors and count the rest")
		}
		if len(page) >= 1<<20 {
			t.Errorf("result page is %d bytes, want under 1 MB", len(page))
		}
		t.Logf("result page: %d bytes", len(page))
		if strings.Contains(page, `http-equiv="refresh"`) {
			t.Error("a finished job's page refreshes itself")
		}
		if _, list := b.get("/admin/import"); !strings.Contains(list, `href="`+loc+`">bad.csv</a>`) {
			t.Errorf("the other replica does not list the job:\n%s", list)
		}
	})
}

// TestImportJobRunningAndInterrupted: a job another process is running
// shows its progress and refreshes itself; when its heartbeat is older
// than catalog.ImportStaleAfter (the process died) it shows as
// interrupted and stops refreshing.
func TestImportJobRunningAndInterrupted(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		p := newPanel(t, db)
		p.signIn()
		j := &catalog.ImportJob{FileName: "big.csv", SizeBytes: 1000, StartedAt: p.clock.Now()}
		if err := catalog.CreateImportJob(context.Background(), db, j); err != nil {
			t.Fatal(err)
		}
		j.BytesRead, j.RowsRead, j.Imported, j.HeartbeatAt = 400, 40, 39, p.clock.Now().Add(time.Second)
		if err := catalog.SaveImportJob(context.Background(), db, j, nil); err != nil {
			t.Fatal(err)
		}
		loc := fmt.Sprintf("/admin/import/%d", j.ID)
		_, page := p.get(loc)
		if !strings.Contains(page, "Importing… 40%: 40 rows read, imported 39") || !strings.Contains(page, `http-equiv="refresh"`) {
			t.Fatalf("running job page:\n%s", page)
		}
		p.clock.add(catalog.ImportStaleAfter + 2*time.Second)
		_, page = p.get(loc)
		if !strings.Contains(page, "The import was interrupted") || strings.Contains(page, `http-equiv="refresh"`) {
			t.Fatalf("stale job page:\n%s", page)
		}
		if _, list := p.get("/admin/import"); !strings.Contains(list, "<td>interrupted</td>") {
			t.Errorf("the list does not show the job as interrupted:\n%s", list)
		}
	})
}
