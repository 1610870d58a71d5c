package admin

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/uptrace/bun"
	"golang.org/x/crypto/bcrypt"

	"shopbot/catalog"
	"shopbot/catalog/team"
)

// AdminUser is the user ADMIN_PASSWORD belongs to.
const AdminUser = "admin"

// bcryptCost is the work factor of stored passwords (tests lower it).
var bcryptCost = bcrypt.DefaultCost

// minPassword is the shortest password accepted for staff.
const minPassword = 10

func hashPassword(pw string) (string, error) {
	return hashPasswordCost(pw, bcryptCost)
}

// randomPasswordCost is the work factor for generated passwords: 20
// random characters (about 116 bits) cannot be guessed whatever the
// cost, which protects only guessable, human-chosen passwords, so a
// first start does not spend a full bcrypt on it.
const randomPasswordCost = bcrypt.MinCost

func hashPasswordCost(pw string, cost int) (string, error) {
	if len(pw) > 72 {
		return "", errors.New("password longer than 72 bytes")
	}
	h, err := bcrypt.GenerateFromPassword([]byte(pw), cost)
	if err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	return string(h), nil
}

// dummyHash is compared against when the user does not exist, so a wrong
// user name takes as long as a wrong password. Made on first use, not at
// program start.
var dummyHash = sync.OnceValue(func() []byte {
	h, _ := bcrypt.GenerateFromPassword([]byte("no such user, no such password"), bcryptCost)
	return h
})

// checkPassword returns the user when username and password match;
// compare is bcrypt.CompareHashAndPassword (tests count the calls).
func checkPassword(ctx context.Context, db bun.IDB, compare func(hash, password []byte) error, username, password string) (*team.StaffUser, bool, error) {
	u, err := team.FindStaffUser(ctx, db, strings.TrimSpace(username))
	if errors.Is(err, catalog.ErrNotFound) {
		_ = compare(dummyHash(), []byte(password))
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("admin: look up user: %w", err)
	}
	if compare([]byte(u.PasswordHash), []byte(password)) != nil {
		return nil, false, nil
	}
	return u, true, nil
}

// createUser adds a staff user.
func createUser(ctx context.Context, db bun.IDB, username, password string, role team.StaffRole) (*team.StaffUser, error) {
	return createUserCost(ctx, db, username, password, role, bcryptCost)
}

// checkNewUser says what is wrong with a new user's name and password.
func checkNewUser(username, password string) error {
	switch {
	case username == "" || len(username) > 64 || strings.ContainsAny(username, " \t\r\n<>\"'&"):
		return badRequest("The user name must be 1–64 characters without spaces or <>\"'&.")
	case len(password) < minPassword:
		return badRequest("The password must be at least %d characters.", minPassword)
	case len(password) > 72:
		return badRequest("The password must be at most 72 bytes.")
	}
	return nil
}

func createUserCost(ctx context.Context, db bun.IDB, username, password string, role team.StaffRole, cost int) (*team.StaffUser, error) {
	username = strings.TrimSpace(username)
	if err := checkNewUser(username, password); err != nil {
		return nil, err
	}
	if !role.Valid() {
		return nil, badRequest("Choose a role: owner, manager or agent.")
	}
	h, err := hashPasswordCost(password, cost)
	if err != nil {
		return nil, err
	}
	u, err := team.CreateStaffUserAs(ctx, db, username, h, role, time.Now())
	if errors.Is(err, catalog.ErrConflict) {
		return nil, &userError{code: http.StatusConflict, msg: "A user named " + username + " already exists."}
	}
	return u, err
}

// EnsureAdmin makes sure the admin user exists. With password set, the
// admin's password becomes it (ADMIN_PASSWORD is the source of truth).
// Without one, a first start generates a password, stores only its hash
// and returns it so the caller can print it once; later starts return "".
// An admin created by another process a moment ago counts as existing, so
// replicas starting together never fail on it; run it under
// migrations.Setup's lock so that only one of them generates a password.
// A password of the wrong length is catalog.ErrInvalid.
func EnsureAdmin(ctx context.Context, db bun.IDB, password string) (generated string, err error) {
	if err := CheckAdminPassword(password); err != nil {
		return "", fmt.Errorf("admin: %w: %w", catalog.ErrInvalid, err)
	}
	u, err := team.FindStaffUser(ctx, db, AdminUser)
	if errors.Is(err, catalog.ErrNotFound) {
		generated, err = createAdmin(ctx, db, password)
		if !isConflict(err) {
			return generated, err
		}
		u, err = team.FindStaffUser(ctx, db, AdminUser) // another process was quicker
	}
	if err != nil {
		return "", fmt.Errorf("admin: look up the admin user: %w", err)
	}
	return "", setAdminPassword(ctx, db, u, password)
}

// CheckAdminPassword says what is wrong with an ADMIN_PASSWORD, if
// anything; empty is fine (a password is generated). The error never
// contains the password.
func CheckAdminPassword(password string) error {
	if password != "" && (len(password) < minPassword || len(password) > 72) {
		return fmt.Errorf("ADMIN_PASSWORD must be %d to 72 characters (got %d)", minPassword, len(password))
	}
	return nil
}

// createAdmin adds the admin user, with a generated password (returned)
// when password is empty.
func createAdmin(ctx context.Context, db bun.IDB, password string) (generated string, err error) {
	cost := bcryptCost
	if password == "" {
		password, generated, cost = newPassword(), "yes", min(randomPasswordCost, bcryptCost)
	}
	if _, err := createUserCost(ctx, db, AdminUser, password, team.StaffOwner, cost); err != nil {
		return "", err
	}
	if generated != "" {
		return password, nil
	}
	return "", nil
}

// isConflict reports createUser's "already exists".
func isConflict(err error) bool {
	var ue *userError
	return errors.As(err, &ue) && ue.code == http.StatusConflict
}

// setAdminPassword makes password the admin's, unless it is empty or
// already is; a changed password ends the sessions signed in with the old.
func setAdminPassword(ctx context.Context, db bun.IDB, u *team.StaffUser, password string) error {
	if password == "" || bcrypt.CompareHashAndPassword([]byte(u.PasswordHash), []byte(password)) == nil {
		return nil
	}
	h, err := hashPassword(password)
	if err != nil {
		return err
	}
	if err := team.SetStaffPassword(ctx, db, u.ID, h, time.Now()); err != nil {
		return fmt.Errorf("admin: set the admin password: %w", err)
	}
	return nil
}

// newPassword is 20 characters from an unambiguous alphabet (~114 bits).
func newPassword() string {
	const alphabet = "23456789abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ"
	b := make([]byte, 20)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}
