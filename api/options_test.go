package api_test

import (
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/dapconsole/dapconsole/api"
)

// countingTransport counts the requests that pass through it.
type countingTransport struct{ n atomic.Int32 }

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return http.DefaultTransport.RoundTrip(r)
}

func TestOptions(t *testing.T) {
	rec := newRecorder(t)
	t.Run("WithHTTPClient sends through the given client", func(t *testing.T) {
		transport := &countingTransport{}
		rec.answer(answer{body: recordedRoot})
		if _, err := api.New(rec.URL, "admin", "pw", api.WithHTTPClient(&http.Client{Transport: transport})).RootFolder(t.Context()); err != nil {
			t.Fatal(err)
		}
		if transport.n.Load() != 1 {
			t.Errorf("%d requests through the transport, want 1", transport.n.Load())
		}
	})
	t.Run("WithHTTPClient(nil) keeps the default", func(t *testing.T) {
		rec.answer(answer{body: recordedRoot})
		if _, err := api.New(rec.URL, "admin", "pw", api.WithHTTPClient(nil)).RootFolder(t.Context()); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("default user agent", func(t *testing.T) {
		rec.answer(answer{body: recordedRoot})
		if _, err := api.New(rec.URL, "admin", "pw").RootFolder(t.Context()); err != nil {
			t.Fatal(err)
		}
		if ua := rec.last(t).userAgent; ua != api.DefaultUserAgent {
			t.Errorf("User-Agent = %q, want %q", ua, api.DefaultUserAgent)
		}
	})
	t.Run("accessors", func(t *testing.T) {
		c := api.New(rec.URL+"/", "analyst", "pw")
		if c.BaseURL() != rec.URL || c.User() != "analyst" {
			t.Errorf("BaseURL, User = %q, %q", c.BaseURL(), c.User())
		}
	})
}
