package admin_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/uptrace/bun"
	"golang.org/x/crypto/bcrypt"

	"shopbot/admin"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// adminMeanwhile is a query hook that, just before EnsureAdmin inserts
// the admin user, creates it as another replica starting at the same
// moment would.
type adminMeanwhile struct {
	t        *testing.T
	db       *bun.DB
	password string
	fired    atomic.Bool
}

func (h *adminMeanwhile) BeforeQuery(ctx context.Context, e *bun.QueryEvent) context.Context {
	if strings.Contains(e.Query, `INSERT INTO "staff_users"`) && h.fired.CompareAndSwap(false, true) {
		if err := admin.CreateUser(ctx, h.db, admin.AdminUser, h.password); err != nil {
			h.t.Errorf("the other replica: %v", err)
		}
	}
	return ctx
}

func (h *adminMeanwhile) AfterQuery(context.Context, *bun.QueryEvent) {}

// TestEnsureAdminCreatedMeanwhile: an admin user created by another
// process between EnsureAdmin's look-up and its insert is no error.
// Without ADMIN_PASSWORD the other process's password stays (and nothing
// is generated here); with it, ADMIN_PASSWORD becomes the password.
func TestEnsureAdminCreatedMeanwhile(t *testing.T) {
	*admin.BcryptCost = bcrypt.MinCost
	for name, password := range map[string]string{"generated": "", "ADMIN_PASSWORD": "from the environment"} {
		t.Run(name, func(t *testing.T) {
			catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
				ctx := context.Background()
				hook := &adminMeanwhile{t: t, db: db, password: "the other replica's"}
				generated, err := admin.EnsureAdmin(ctx, db.WithQueryHook(hook), password)
				if err != nil || generated != "" || !hook.fired.Load() {
					t.Fatalf("EnsureAdmin = %q, %v (other replica ran: %v); want no error, nothing generated", generated, err, hook.fired.Load())
				}
				var hashes []string
				if err := db.NewSelect().Table("staff_users").Column("password_hash").Where("username = ?", admin.AdminUser).Scan(ctx, &hashes); err != nil || len(hashes) != 1 {
					t.Fatalf("%d admin users (%v), want 1", len(hashes), err)
				}
				want := password
				if want == "" {
					want = hook.password
				}
				if bcrypt.CompareHashAndPassword([]byte(hashes[0]), []byte(want)) != nil {
					t.Errorf("the admin's password is not %q", want)
				}
			})
		})
	}
}

func TestEnsureAdminBadPassword(t *testing.T) {
	db := catalogtest.SQLite(t)
	for _, pw := range []string{"short", strings.Repeat("x", 73)} {
		if _, err := admin.EnsureAdmin(context.Background(), db, pw); !errors.Is(err, catalog.ErrInvalid) || !strings.Contains(err.Error(), "ADMIN_PASSWORD must be 10 to 72 characters (got") {
			t.Errorf("%d characters: err = %v, want ErrInvalid with the rule", len(pw), err)
		}
	}
	if n, err := db.NewSelect().Table("staff_users").Count(context.Background()); err != nil || n != 0 {
		t.Errorf("%d staff users after bad passwords (%v), want none", n, err)
	}
}
