package main

import (
	"context"
	"fmt"
	"net"

	"github.com/uptrace/bun"

	"shopbot/admin"
	"shopbot/catalog"
)

// shopSettings is the merchant's settings store: values saved in the
// panel override the configuration, which supplies the defaults.
func shopSettings(cfg *Config, db *bun.DB) *catalog.SettingsStore {
	return catalog.NewSettingsStore(db, catalog.Settings{
		ShopName: cfg.ShopName, Currency: cfg.ShopCurrency, Model: cfg.OpenAIModel,
		MaxRounds: cfg.engine.maxRounds, RateLimit: cfg.engine.rateTurns, RateWindow: cfg.engine.rateWindow,
	})
}

// adminStep creates the admin user at first start (a migrations.Step, so
// one replica does it) and then prints where the panel is. A generated
// password is printed this once, by the process that made it; only its
// hash is stored.
type adminStep struct {
	password  string // ADMIN_PASSWORD
	generated string
}

func (a *adminStep) ensure(ctx context.Context, db bun.IDB) (err error) {
	a.generated, err = admin.EnsureAdmin(ctx, db, a.password)
	return err
}

func (a *adminStep) print(e env, addr net.Addr) {
	how := "password printed at first start; set ADMIN_PASSWORD to change it"
	switch {
	case a.generated != "":
		how = "password " + a.generated + " (generated; shown only now, set ADMIN_PASSWORD to choose one)"
	case a.password != "":
		how = "password from ADMIN_PASSWORD"
	}
	fmt.Fprintf(e.stdout, "  admin      http://%s/admin/  (user %s, %s)\n", addr, admin.AdminUser, how)
}
