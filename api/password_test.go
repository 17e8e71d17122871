package api_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/api"
)

const secretPassword = "s3cret-Pa55word"

// TestPasswordNeverShown provokes every kind of error the client makes,
// including answers that echo the password back, and formats the client in
// every way fmt can; the password must appear nowhere.
func TestPasswordNeverShown(t *testing.T) {
	rec := newRecorder(t)
	client := api.New(rec.URL, "analyst", secretPassword)
	readFolder := func(ctx context.Context, c *api.Client) error { _, err := c.Folder(ctx, api.FileID(4)); return err }

	tests := []struct {
		name   string
		client *api.Client
		answer answer
		call   func(context.Context, *api.Client) error
	}{
		{"401", client, answer{status: 401, body: `{"status":"failure","reason":"wrong user name or password"}`}, readFolder},
		{"reason echoing the password", client, answer{status: 400, body: `{"status":"failure","reason":"password ` + secretPassword + ` is too short"}`}, readFolder},
		{"200 failure echoing the password", client, answer{body: `{"status":"failure","reason":"bad ` + secretPassword + `"}`},
			func(ctx context.Context, c *api.Client) error { _, err := c.JobStatus(ctx, api.FileID(1)); return err }},
		{"HTML echoing the password", client, answer{status: 502, ctype: "text/html", body: "<p>Authorization for analyst:" + secretPassword + " failed</p>"}, readFolder},
		{"HTML 200 echoing the password", client, answer{ctype: "text/plain", body: secretPassword}, readFolder},
		{"paths echoing the password", client, answer{status: 409, body: `{"status":"failure","reason":"x","paths":["/x/` + secretPassword + `"]}`}, readFolder},
		{"malformed JSON", client, answer{body: `{"name":`}, readFolder},
		{"backup failure", client, answer{status: 400, body: `{"status":"failure","reason":"` + secretPassword + `"}`},
			func(ctx context.Context, c *api.Client) error {
				_, err := c.Backup(ctx, api.Path("/Data"), 0, &bytes.Buffer{}, nil)
				return err
			}},
		{"restore failure", client, answer{status: 409, body: `{"status":"failure","reason":"` + secretPassword + `"}`},
			func(ctx context.Context, c *api.Client) error {
				_, err := c.Restore(ctx, api.Path("/Data"), strings.NewReader("PK"), 2, 0, nil)
				return err
			}},
		{"unreachable", api.New("http://"+unusedAddress(t), "analyst", secretPassword), answer{}, readFolder},
		{"password in the base URL", api.New("http://analyst:"+secretPassword+"@"+unusedAddress(t), "analyst", secretPassword), answer{}, readFolder},
		{"malformed base URL with the password", api.New("http://analyst:"+secretPassword+"@%zz", "analyst", secretPassword), answer{}, readFolder},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec.answer(tt.answer)
			err := tt.call(t.Context(), tt.client)
			if err == nil {
				t.Fatal("no error")
			}
			for _, text := range []string{err.Error(), fmt.Sprintf("%v", err), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err)} {
				if strings.Contains(text, secretPassword) {
					t.Errorf("error shows the password: %s", text)
				}
			}
		})
	}

	t.Run("formatting the client", func(t *testing.T) {
		for _, text := range []string{
			client.String(), fmt.Sprint(client), fmt.Sprintf("%v", client), fmt.Sprintf("%+v", client), fmt.Sprintf("%#v", client),
			fmt.Sprintf("%v", *client), fmt.Sprintf("%+v", *client), fmt.Sprintf("%#v", *client), fmt.Sprint(client),
		} {
			if strings.Contains(text, secretPassword) {
				t.Errorf("formatted client shows the password: %s", text)
			}
		}
		if s := client.String(); !strings.Contains(s, "analyst") || !strings.Contains(s, rec.URL) {
			t.Errorf("String() = %q, want the user and the server", s)
		}
	})
}

// TestPasswordEqualToUserName checks that a password equal to the user name
// (the demo's admin/admin) does not blank the user name in reasons.
func TestPasswordEqualToUserName(t *testing.T) {
	rec := newRecorder(t)
	rec.answer(answer{status: 403, body: `{"status":"failure","reason":"admin may not write here"}`})
	_, err := api.New(rec.URL, "admin", "admin").Folder(t.Context(), api.FileID(4))
	if !strings.Contains(err.Error(), "admin may not write here") {
		t.Errorf("reason changed: %v", err)
	}
}
