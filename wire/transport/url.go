package transport

import (
	"fmt"
	"net/url"
	"strings"
)

// absolute checks req.URL and prepares req to be sent to it: the URL
// resolved against the base URL when it is relative (RFC 3986: "/x"
// replaces the base's path), NoAuth when it is not on the base URL's
// origin, so the token never leaves the interface's host, and a Path for
// logs and errors when none is set.
func (c *Client) absolute(req *Request) error {
	u, err := url.Parse(req.URL)
	if err == nil && !u.IsAbs() {
		u = c.base.ResolveReference(u)
		req.URL = u.String()
	}
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		shown, _, _ := strings.Cut(req.URL, "?") // the query may be a credential
		return fmt.Errorf("%s %s: request URL %q is not an http(s) URL", c.cfg.Interface, req.Method, shown)
	}
	same := sameOrigin(u, c.base)
	if !same {
		req.NoAuth = true
	}
	if req.Path == "" {
		req.Path = u.EscapedPath()
		if !same {
			req.Path = "//" + u.Host + req.Path
		}
	}
	return nil
}

// sameOrigin reports whether a and b have the same scheme, host and port
// (a port left out is the scheme's default).
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) &&
		port(a) == port(b)
}

func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "https") {
		return "443"
	}
	return "80"
}
