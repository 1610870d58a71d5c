package admin

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// TrustedProxies are the reverse proxies whose X-Forwarded-* headers are
// believed (TRUSTED_PROXIES). A request straight from anyone else is taken
// at its word of nothing: its address is the connection's, its scheme is
// TLS or not. This file is the one place that reads those headers.
type TrustedProxies struct {
	prefixes []netip.Prefix
}

// ParseTrustedProxies reads a comma-separated list of IP addresses and
// CIDR ranges, such as "10.0.0.0/8, 127.0.0.1". An empty list trusts no
// one.
func ParseTrustedProxies(list string) (TrustedProxies, error) {
	var p TrustedProxies
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if strings.Contains(item, "/") {
			pre, err := netip.ParsePrefix(item)
			if err != nil {
				return TrustedProxies{}, fmt.Errorf("%q is not an IP address or CIDR range", item)
			}
			p.prefixes = append(p.prefixes, pre.Masked())
			continue
		}
		addr, err := netip.ParseAddr(item)
		if err != nil {
			return TrustedProxies{}, fmt.Errorf("%q is not an IP address or CIDR range", item)
		}
		addr = addr.Unmap()
		p.prefixes = append(p.prefixes, netip.PrefixFrom(addr, addr.BitLen()))
	}
	return p, nil
}

// trusts reports whether addr is one of the proxies.
func (p TrustedProxies) trusts(addr netip.Addr) bool {
	addr = addr.Unmap()
	for _, pre := range p.prefixes {
		if pre.Contains(addr) {
			return true
		}
	}
	return false
}

// peer is the address of the connection's other end.
func peer(r *http.Request) (netip.Addr, bool) {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	addr, err := netip.ParseAddr(host)
	return addr.Unmap(), err == nil
}

// ClientIP is the address the request came from: the connection's peer,
// or, when the peer is a trusted proxy, the nearest address in
// X-Forwarded-For that is not a trusted proxy (addresses further left
// were written by the client and could be anything).
func (p TrustedProxies) ClientIP(r *http.Request) string {
	addr, ok := peer(r)
	if !ok {
		return r.RemoteAddr
	}
	if !p.trusts(addr) {
		return addr.String()
	}
	hops := forwardedValues(r, "X-Forwarded-For")
	for i := len(hops) - 1; i >= 0; i-- {
		hop, err := netip.ParseAddr(hops[i])
		if err != nil {
			break // garbage: keep the last address a trusted proxy vouched for
		}
		addr = hop.Unmap()
		if !p.trusts(addr) {
			break
		}
	}
	return addr.String()
}

// Secure reports whether the request reached us over TLS: directly, or
// through a trusted proxy whose X-Forwarded-Proto (the last value, the
// nearest proxy's) says https.
func (p TrustedProxies) Secure(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	addr, ok := peer(r)
	if !ok || !p.trusts(addr) {
		return false
	}
	protos := forwardedValues(r, "X-Forwarded-Proto")
	return len(protos) > 0 && strings.EqualFold(protos[len(protos)-1], "https")
}

// forwardedValues lists a header's comma-separated values over all its
// lines, in order.
func forwardedValues(r *http.Request, name string) []string {
	var out []string
	for _, line := range r.Header.Values(name) {
		for _, v := range strings.Split(line, ",") {
			if v = strings.TrimSpace(v); v != "" {
				out = append(out, v)
			}
		}
	}
	return out
}
