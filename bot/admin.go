package main

import (
	"context"
	"fmt"
	"net"

	"github.com/uptrace/bun"

	"shopbot/admin"
)

// shopSettings is the merchant's settings store: values saved in the
// panel override the configuration, which supplies the defaults.
func shopSettings(cfg *Config, db *bun.DB) *admin.Settings {
	return admin.NewSettings(db, admin.ShopSettings{
		ShopName: cfg.ShopName, Currency: cfg.ShopCurrency, Model: cfg.OpenAIModel,
		MaxRounds: cfg.engine.maxRounds, RateLimit: cfg.engine.rateTurns, RateWindow: cfg.engine.rateWindow,
	})
}

// ensureAdmin creates the admin user on first start and prints where the
// panel is. A generated password is printed this once; only its hash is
// stored.
func ensureAdmin(ctx context.Context, e env, cfg *Config, db *bun.DB, addr net.Addr) error {
	generated, err := admin.EnsureAdmin(ctx, db, cfg.AdminPassword)
	if err != nil {
		return err
	}
	how := "password printed at first start; set ADMIN_PASSWORD to change it"
	switch {
	case generated != "":
		how = "password " + generated + " (generated; shown only now, set ADMIN_PASSWORD to choose one)"
	case cfg.AdminPassword != "":
		how = "password from ADMIN_PASSWORD"
	}
	fmt.Fprintf(e.stdout, "  admin      http://%s/admin/  (user %s, %s)\n", addr, admin.AdminUser, how)
	return nil
}
