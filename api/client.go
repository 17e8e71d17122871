package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/dapconsole/dapconsole/model"
)

// DefaultUserAgent is sent unless WithUserAgent says otherwise.
const DefaultUserAgent = "dapconsole"

// maxJSONAnswer caps a JSON answer read into memory; a folder with 10,000
// children or a list of 10,000 connections is a few MB.
const maxJSONAnswer = 64 << 20

// Client is a client of one platform server, acting as one user. It is safe
// for concurrent use. Its password is kept in a closure, so neither String
// nor fmt's %+v / %#v of the client can show it.
type Client struct {
	base      string // scheme://host[:port][/prefix], no trailing slash, no user info
	baseErr   error
	user      string
	authorize func(*http.Request)
	redact    func(string) string
	http      *http.Client
	timeout   time.Duration
	userAgent string
	jobs      *jobIndex // which job endpoints the server has, and configuration ids for the older ones
	reads     *flights  // JSON reads in flight, which the same reads join
	// readOnly refuses every write before it is sent (ErrReadOnly).
	readOnly bool
}

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient makes the client send its requests through h (its
// transport, timeout and redirect policy apply); nil keeps the default.
func WithHTTPClient(h *http.Client) Option {
	return func(c *Client) {
		if h != nil {
			c.http = h
		}
	}
}

// WithTimeout bounds every call except Backup, BackupFiles and Restore,
// whose duration grows with the archive; bound those with their context.
func WithTimeout(d time.Duration) Option { return func(c *Client) { c.timeout = d } }

// WithUserAgent sets the User-Agent header.
func WithUserAgent(ua string) Option { return func(c *Client) { c.userAgent = ua } }

// WithReadOnly makes a client that refuses every write (any request but a
// GET, HEAD or a backup's POST) before it leaves the process: the call
// fails with an *Error wrapping ErrReadOnly, and the server sees nothing.
func WithReadOnly() Option { return func(c *Client) { c.readOnly = true } }

// AsReadOnly returns a copy of the client that refuses every write, as
// WithReadOnly; nil stays nil.
func (c *Client) AsReadOnly() *Client {
	if c == nil || c.readOnly {
		return c
	}
	ro := *c
	ro.readOnly = true
	return &ro
}

// ReadOnly reports whether the client refuses writes.
func (c *Client) ReadOnly() bool { return c.readOnly }

// New returns a client of the server at baseURL (e.g. "http://127.0.0.1:8080")
// that authenticates every request as user with HTTP Basic. A base URL that
// is not http(s)://host[:port][/prefix] makes every call fail with that reason.
func New(baseURL, user, password string, opts ...Option) *Client {
	c := &Client{
		user:      user,
		http:      &http.Client{},
		userAgent: DefaultUserAgent,
		authorize: func(r *http.Request) { r.SetBasicAuth(user, password) },
		redact:    redactor(user, password),
		jobs:      &jobIndex{},
		reads:     &flights{},
	}
	c.base, c.baseErr = normalizeBase(baseURL)
	for _, opt := range opts {
		opt(c)
	}
	return c
}

// normalizeBase checks a base URL and drops user info and trailing slashes.
// Its errors never quote the URL, which could hold a password.
func normalizeBase(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return "", errors.New("base URL does not parse as a URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return "", errors.New("base URL must have the form http(s)://host[:port]")
	}
	u.User = nil
	u.RawQuery, u.Fragment = "", ""
	return strings.TrimRight(u.String(), "/"), nil
}

// redactor returns a function that hides the password in text the server
// sent. A password equal to the user name is left alone: the console shows
// the user name anyway, and hiding it would blank every mention of the user.
func redactor(user, password string) func(string) string {
	if password == "" || password == user {
		return func(s string) string { return s }
	}
	return func(s string) string { return strings.ReplaceAll(s, password, "[redacted]") }
}

// BaseURL returns the server's base URL, without user info.
func (c *Client) BaseURL() string { return c.base }

// User returns the user name the client authenticates as.
func (c *Client) User() string { return c.user }

// String describes the client without its password.
func (c *Client) String() string { return "api.Client(" + c.user + " at " + c.base + ")" }

// GoString is String, so that %#v does not print the fields.
func (c *Client) GoString() string { return c.String() }

// request is one HTTP exchange; path and query are already encoded.
type request struct {
	method      string
	path        string
	query       string
	body        io.Reader
	length      int64 // of body; -1 when unknown
	contentType string
	accept      string
	// reads marks a request that changes nothing whatever its method (the
	// POST of a backup of chosen files).
	reads bool
}

func (r request) op() string { return r.method + " " + r.path }

// writes reports whether the request may change something on the server:
// every method but GET and HEAD, unless marked as a read.
func (r request) writes() bool {
	return r.method != http.MethodGet && r.method != http.MethodHead && !r.reads
}

// send performs the request. Answers outside 2xx come back as *Error, with
// the body's reason; the caller closes the body of a 2xx answer.
func (c *Client) send(ctx context.Context, r request) (*http.Response, error) {
	op := r.op()
	if c.baseErr != nil {
		return nil, &Error{Op: op, Reason: c.baseErr.Error()}
	}
	if c.readOnly && r.writes() {
		return nil, &Error{Op: op, Reason: "not sent", Err: ErrReadOnly, notSent: true}
	}
	if r.writes() {
		c.reads.wrote()
		defer c.reads.wrote()
	}
	target := c.base + r.path
	if r.query != "" {
		target += "?" + r.query
	}
	req, err := http.NewRequestWithContext(ctx, r.method, target, r.body)
	if err != nil {
		return nil, &Error{Op: op, Reason: "cannot build the request", Err: err, notSent: true}
	}
	if r.body != nil && r.length >= 0 {
		req.ContentLength = r.length
	}
	c.authorize(req)
	req.Header.Set("User-Agent", c.userAgent)
	if r.accept != "" {
		req.Header.Set("Accept", r.accept)
	}
	if r.contentType != "" {
		req.Header.Set("Content-Type", r.contentType)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, c.transportError(op, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		defer resp.Body.Close()
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		e := &Error{Op: op, Status: resp.StatusCode}
		if f, ok := failureOf(body); ok {
			e.Reason, e.Paths = c.redact(f.Reason), c.redactAll(f.Paths)
		} else if len(bytes.TrimSpace(body)) > 0 {
			e.Reason = c.describeAnswer(resp.Header.Get("Content-Type"), body)
		}
		return nil, e
	}
	return resp, nil
}

// transportError turns a failed exchange into an *Error; a dial that fails
// (refused, unknown host, timeout) says the server is unreachable.
func (c *Client) transportError(op string, err error) error {
	var uerr *url.Error
	if errors.As(err, &uerr) {
		err = uerr.Err // its text repeats the whole URL
	}
	var opErr *net.OpError
	var dnsErr *net.DNSError
	if errors.As(err, &opErr) && opErr.Op == "dial" || errors.As(err, &dnsErr) {
		return &Error{Op: op, Reason: "server unreachable at " + c.base, Err: err, unreachable: true}
	}
	return &Error{Op: op, Err: err}
}

// failureOf reports whether body is a failure body, in either envelope the
// platform sends (model.ParseFailure); bodies that cannot be one are told
// without decoding them.
func failureOf(body []byte) (model.Failure, bool) {
	if !bytes.Contains(body, []byte(`"failure"`)) && !bytes.Contains(body, []byte(`"error"`)) {
		return model.Failure{}, false
	}
	return model.ParseFailure(body)
}

// describeAnswer says what came instead of JSON, or instead of a failure
// body: the content type and the start of the body on one line, password hidden.
func (c *Client) describeAnswer(contentType string, body []byte) string {
	const keep = 120
	text := strings.Join(strings.FieldsFunc(string(body), unicode.IsSpace), " ")
	if len(text) > keep {
		text = text[:keep] + "…"
	}
	text = strconv.Quote(c.redact(strings.ToValidUTF8(text, "?")))
	if first := bytes.TrimSpace(body)[0]; first == '{' || first == '[' {
		return "unexpected answer: " + text
	}
	if contentType == "" {
		contentType = "no content type"
	}
	return fmt.Sprintf("answer is not JSON (%s): %s", contentType, text)
}

func (c *Client) redactAll(texts []string) []string {
	for i, t := range texts {
		texts[i] = c.redact(t)
	}
	return texts
}

// call sends a JSON request (in may be nil) and decodes a JSON answer into
// out (may be nil). It reports whether the answer had a body, so that
// writes can tolerate an empty one. A failure body is an error whatever the
// HTTP status.
func (c *Client) call(ctx context.Context, method, path, query string, in, out any, needBody bool) (bool, error) {
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	r := request{method: method, path: path, query: query, length: -1, accept: "application/json"}
	if in != nil {
		payload, err := json.Marshal(in)
		if err != nil {
			return false, &Error{Op: r.op(), Reason: "cannot encode the request body", Err: err, notSent: true}
		}
		r.body, r.length, r.contentType = bytes.NewReader(payload), int64(len(payload)), "application/json"
	}
	var resp *http.Response
	var body []byte
	var err error
	if r.method == http.MethodGet && r.body == nil {
		resp, body, err = c.reads.read(ctx, r, c.fetch)
	} else {
		resp, body, err = c.fetch(ctx, r)
	}
	if err != nil {
		return false, err
	}
	return c.decode(r.op(), resp, body, out, needBody)
}

// fetch sends a request and reads its whole answer, up to maxJSONAnswer.
func (c *Client) fetch(ctx context.Context, r request) (*http.Response, []byte, error) {
	resp, err := c.send(ctx, r)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxJSONAnswer+1))
	if err != nil {
		return nil, nil, &Error{Op: r.op(), Status: resp.StatusCode, Reason: "answer cut short", Err: err}
	}
	if len(body) > maxJSONAnswer {
		return nil, nil, &Error{Op: r.op(), Status: resp.StatusCode, Reason: fmt.Sprintf("answer larger than %d bytes", maxJSONAnswer)}
	}
	return resp, body, nil
}

// decode reads a 2xx answer's body into out and reports whether it held
// one. A failure body is an error. Where no body is needed (writes), an
// answer that is empty, not JSON, or JSON of another shape is a success
// without a body: the real platform answers some writes with text or with
// JSON of its own.
func (c *Client) decode(op string, resp *http.Response, body []byte, out any, needBody bool) (bool, error) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		if needBody {
			return false, &Error{Op: op, Status: resp.StatusCode, Reason: "empty answer where JSON was expected"}
		}
		return false, nil
	}
	if trimmed[0] != '{' && trimmed[0] != '[' {
		if !needBody {
			return false, nil
		}
		return true, &Error{Op: op, Status: resp.StatusCode, Reason: c.describeAnswer(resp.Header.Get("Content-Type"), body)}
	}
	if f, ok := failureOf(trimmed); ok {
		return true, &Error{Op: op, Status: resp.StatusCode, Reason: c.redact(f.Reason), Paths: c.redactAll(f.Paths), failureBody: true}
	}
	if out == nil {
		return true, nil
	}
	if err := json.Unmarshal(trimmed, out); err != nil {
		if !needBody {
			return false, nil
		}
		return true, &Error{Op: op, Status: resp.StatusCode, Reason: fmt.Sprintf("answer does not decode as %T", out), Err: err}
	}
	return true, nil
}

// read is call for answers that must have a body.
func (c *Client) read(ctx context.Context, method, path, query string, in, out any) error {
	_, err := c.call(ctx, method, path, query, in, out, true)
	return err
}

// write is call for writes whose answer body may be absent: it returns out,
// or nil when the server sent no body.
func write[T any](ctx context.Context, c *Client, method, path string, in any) (*T, error) {
	out := new(T)
	present, err := c.call(ctx, method, path, "", in, out, false)
	if err != nil || !present {
		return nil, err
	}
	return out, nil
}
