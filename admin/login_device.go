package admin

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"shopbot/catalog"
)

// A known device is a browser that signed in as a user before. It carries
// a cookie naming the user and a random device id, signed with HMAC-SHA256
// under a secret every replica shares (catalog.ServerSecret), so no
// replica needs to remember devices: the signature is the proof. Sign-in
// attempts with a valid cookie for the user they name are not slowed by
// strangers' failures (login_limit.go). The cookie is only sent to the
// sign-in route, never readable by scripts, and never sent cross-site.

const (
	deviceCookie = "shopbot_device"
	// deviceTTL is how long a device stays known after its last sign-in.
	deviceTTL = 365 * 24 * time.Hour
	// deviceSecret names the signing key in server_secrets.
	deviceSecret = "admin_device_cookie"
)

// deviceKeys holds the signing key once loaded from the database.
type deviceKeys struct {
	mu  sync.Mutex
	key []byte
}

func (d *deviceKeys) get(ctx context.Context, s *Server) ([]byte, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.key == nil {
		k, err := catalog.ServerSecret(ctx, s.db, deviceSecret)
		if err != nil {
			return nil, err
		}
		d.key = k
	}
	return d.key, nil
}

// signDevice is the cookie value for device id of user issued at t:
// user.id.unix.mac, each part base64url or decimal, so none holds a dot.
func signDevice(key []byte, user, id string, t time.Time) string {
	body := base64.RawURLEncoding.EncodeToString([]byte(user)) + "." + id + "." + strconv.FormatInt(t.Unix(), 10)
	m := hmac.New(sha256.New, key)
	m.Write([]byte(body))
	return body + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// knownDevice returns the device id of the request's cookie when it is
// valid at now and names user; "" otherwise. Loading the key fails only
// when the database does, and then the attempt is treated as a stranger's.
func (s *Server) knownDevice(r *http.Request, user string) string {
	c, err := r.Cookie(deviceCookie)
	if err != nil || c.Value == "" || len(c.Value) > 512 {
		return ""
	}
	parts := strings.Split(c.Value, ".")
	if len(parts) != 4 {
		return ""
	}
	key, err := s.devices.get(r.Context(), s)
	if err != nil {
		return ""
	}
	issued, err := strconv.ParseInt(parts[2], 10, 64)
	if err != nil {
		return ""
	}
	name, err := base64.RawURLEncoding.DecodeString(parts[0])
	if err != nil || string(name) != user {
		return ""
	}
	at := time.Unix(issued, 0)
	want := signDevice(key, user, parts[1], at)
	if !hmac.Equal([]byte(want), []byte(c.Value)) || s.cfg.Now().Sub(at) > deviceTTL {
		return ""
	}
	return parts[1]
}

// rememberDevice gives the browser a device cookie for user after a
// successful sign-in, keeping its device id when it had one (so its
// delay key stays the same), renewed for another deviceTTL.
func (s *Server) rememberDevice(w http.ResponseWriter, r *http.Request, user, id string) {
	key, err := s.devices.get(r.Context(), s)
	if err != nil {
		s.log.WarnContext(r.Context(), "device cookie not issued", "err", err)
		return
	}
	if id == "" {
		b := make([]byte, 16)
		_, _ = rand.Read(b)
		id = base64.RawURLEncoding.EncodeToString(b)
	}
	http.SetCookie(w, &http.Cookie{Name: deviceCookie, Value: signDevice(key, user, id, s.cfg.Now()), Path: "/admin/login",
		HttpOnly: true, Secure: s.secure(r), SameSite: http.SameSiteStrictMode, MaxAge: int(deviceTTL / time.Second)})
}
