package transport_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"treasury/wire/apierr"
	"treasury/wire/auth"
	"treasury/wire/transport"
)

// seen records, per request, the URI and the Authorization headers.
type seen struct {
	mu    sync.Mutex
	uris  []string
	auths [][]string
}

func (s *seen) handler(status int) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.uris = append(s.uris, r.URL.RequestURI())
		s.auths = append(s.auths, r.Header.Values("Authorization"))
		s.mu.Unlock()
		w.WriteHeader(status)
		w.Write([]byte("content"))
	})
}

// tokens counts the tokens asked and the invalidations.
type tokens struct {
	mu                 sync.Mutex
	asked, invalidated int
}

func (s *tokens) Token(context.Context) (auth.Secret, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.asked++
	return auth.NewSecret("tok"), nil
}

func (s *tokens) Invalidate(auth.Secret) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.invalidated++
	return true
}

// TestAbsoluteURL sends to links: the token goes to the base URL's origin
// only, whatever the path; another host, or the same server under another
// host name, gets no Authorization header at all.
func TestAbsoluteURL(t *testing.T) {
	var home, other seen
	hs := httptest.NewServer(home.handler(200))
	defer hs.Close()
	store := httptest.NewServer(other.handler(200))
	defer store.Close()
	src := &tokens{}
	c, err := transport.New(transport.Config{Interface: apierr.Reporting, BaseURL: hs.URL + "/reporting", Auth: src})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	get := func(u string) (string, error) {
		var raw []byte
		_, err := c.Do(ctx, transport.Request{URL: u}, &raw)
		return string(raw), err
	}
	for _, u := range []string{hs.URL + "/files/a.csv?sig=1", "HTTP" + strings.TrimPrefix(hs.URL, "http") + "/b"} {
		if body, err := get(u); err != nil || body != "content" {
			t.Fatalf("get %s: %q, %v", u, body, err)
		}
	}
	if len(home.uris) != 2 || home.uris[0] != "/files/a.csv?sig=1" || home.uris[1] != "/b" {
		t.Errorf("home saw %v: the link's path and query, not the base path", home.uris)
	}
	for i, a := range home.auths {
		if len(a) != 1 || a[0] != "Bearer tok" {
			t.Errorf("home request %d: Authorization %q, want the token", i, a)
		}
	}

	localhost := strings.Replace(hs.URL, "127.0.0.1", "localhost", 1)
	for _, u := range []string{store.URL + "/bucket/r.csv?X-Amz-Signature=abc", localhost + "/files/c.csv"} {
		if body, err := get(u); err != nil || body != "content" {
			t.Fatalf("get %s: %q, %v", u, body, err)
		}
	}
	if len(other.auths) != 1 || len(other.auths[0]) != 0 {
		t.Errorf("another host got Authorization %q", other.auths)
	}
	if len(home.auths) != 3 || len(home.auths[2]) != 0 {
		t.Errorf("the same server under another host name got Authorization %q", home.auths)
	}
	if src.asked != 2 {
		t.Errorf("%d tokens asked for 2 requests to the base origin", src.asked)
	}
}

// TestAbsoluteURLErrors: a refusal from another host names the host and
// path but not the query, and its 401 asks for no new token; a URL that is
// not absolute http(s) is refused before anything is sent.
func TestAbsoluteURLErrors(t *testing.T) {
	var home, other seen
	hs := httptest.NewServer(home.handler(200))
	defer hs.Close()
	store := httptest.NewServer(other.handler(http.StatusUnauthorized))
	defer store.Close()
	src := &tokens{}
	c, err := transport.New(transport.Config{Interface: apierr.Reporting, BaseURL: hs.URL, Auth: src})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	_, err = c.Do(ctx, transport.Request{URL: store.URL + "/bucket/r.csv?sig=secret"}, nil)
	e, ok := apierr.As(err)
	if !ok || e.HTTPStatus != http.StatusUnauthorized || e.Path != "//"+strings.TrimPrefix(store.URL, "http://")+"/bucket/r.csv" {
		t.Fatalf("err %v, want a 401 naming //host/bucket/r.csv", err)
	}
	if strings.Contains(err.Error(), "secret") || len(other.uris) != 1 || src.asked != 0 || src.invalidated != 0 {
		t.Errorf("err %q, %d sends, %d tokens asked, %d invalidated: want one send, no token, no query in the error",
			err, len(other.uris), src.asked, src.invalidated)
	}
	for _, u := range []string{"ftp://files.example/r.csv?sig=secret", "https://", "::", "mailto:x@example.com"} {
		_, err := c.Do(ctx, transport.Request{URL: u}, nil)
		if err == nil || !strings.Contains(err.Error(), "not an http(s) URL") || strings.Contains(err.Error(), "secret") {
			t.Errorf("URL %q: %v", u, err)
		}
	}
	if len(home.uris) != 0 || src.asked != 0 {
		t.Errorf("refused URLs sent %d requests, asked %d tokens", len(home.uris), src.asked)
	}
}

// TestRelativeURL resolves a relative link against the base URL as RFC
// 3986 does, and sends the token with it: it is on the base URL's origin.
func TestRelativeURL(t *testing.T) {
	var home seen
	hs := httptest.NewServer(home.handler(200))
	defer hs.Close()
	c, err := transport.New(transport.Config{Interface: apierr.Reporting, BaseURL: hs.URL + "/reporting/", Auth: &tokens{}})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"/v2/reports/download/x?part=1", strings.TrimPrefix(hs.URL, "http:") + "/y"} {
		if _, err := c.Do(context.Background(), transport.Request{URL: u}, nil); err != nil {
			t.Fatalf("%s: %v", u, err)
		}
	}
	if want := []string{"/v2/reports/download/x?part=1", "/y"}; strings.Join(home.uris, " ") != strings.Join(want, " ") {
		t.Errorf("requests %v, want %v", home.uris, want)
	}
	for i, a := range home.auths {
		if len(a) != 1 || a[0] != "Bearer tok" {
			t.Errorf("request %d: Authorization %q, want the token", i, a)
		}
	}
}
