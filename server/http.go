package server

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"sync"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/lenient"
	"github.com/dapconsole/dapconsole/server/store"
	"golang.org/x/crypto/bcrypt"
)

// realm is the HTTP Basic realm every 401 names.
const realm = `Basic realm="dap"`

type userKey struct{}

// userFrom returns the authenticated user of a request that passed
// authenticate (every route does), with the ids of its groups.
func userFrom(r *http.Request) store.User {
	u, _ := r.Context().Value(userKey{}).(store.User)
	return u
}

// authenticate admits requests with valid HTTP Basic credentials, putting the
// user into the request context (userFrom); others get 401 and a challenge.
func (s *Server) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, password, ok := r.BasicAuth()
		if !ok {
			challenge(w, "credentials required (HTTP Basic)")
			return
		}
		u, err := s.store.UserByName(r.Context(), name)
		switch {
		case errors.Is(err, store.ErrNotFound):
			s.auth.spend(password) // an unknown name takes as long as a wrong password
			challenge(w, "wrong user name or password")
			return
		case err != nil:
			writeError(w, err)
			return
		case !s.auth.verify(u, password):
			challenge(w, "wrong user name or password")
			return
		case !u.Enabled:
			challenge(w, "this account is disabled")
			return
		}
		next.ServeHTTP(w, routeRootRef(r.WithContext(context.WithValue(r.Context(), userKey{}, u))))
	})
}

// challenge answers 401 with the Basic challenge and a failure body.
func challenge(w http.ResponseWriter, reason string) {
	w.Header().Set("WWW-Authenticate", realm)
	writeFailure(w, http.StatusUnauthorized, reason)
}

// authCache remembers passwords that matched a stored hash, as keyed MACs
// under a per-process random key, so each request does not pay for bcrypt.
// An entry counts only while the user's stored hash is the one it matched.
type authCache struct {
	key   []byte
	cost  int    // every check costs at least a hash of this cost
	decoy []byte // a hash of that cost, checked against for unknown names
	mu    sync.Mutex
	ok    map[string]authEntry // by user name
}

// defaultDecoyHash is a bcrypt hash (bcrypt.DefaultCost) of a random string
// nobody knows: with it a server at the default cost starts without paying
// for a hash.
const defaultDecoyHash = "$2a$10$2uwRryvu5ehu14riRWGPgO9TN6.6mAVledh2TkySpzXM8V/iFyjkS"

type authEntry struct {
	hash string
	mac  []byte
}

// newAuthCache checks passwords at cost (Config.PasswordCost).
func newAuthCache(cost int) (*authCache, error) {
	if cost < bcrypt.MinCost || cost > bcrypt.MaxCost {
		// bcrypt would hash at its default below the minimum, so that the
		// decoy and the stored hashes would cost apart.
		return nil, fmt.Errorf("password cost %d: want %d to %d", cost, bcrypt.MinCost, bcrypt.MaxCost)
	}
	key := make([]byte, 32)
	rand.Read(key)
	decoy := []byte(defaultDecoyHash)
	if cost != bcrypt.DefaultCost {
		var err error
		if decoy, err = bcrypt.GenerateFromPassword([]byte(rand.Text()), cost); err != nil {
			return nil, fmt.Errorf("password cost %d: %w", cost, err)
		}
	}
	return &authCache{key: key, cost: cost, decoy: decoy, ok: map[string]authEntry{}}, nil
}

// compareHash is bcrypt's check; a variable so that tests can weigh the
// work each answer costs.
var compareHash = bcrypt.CompareHashAndPassword

// spend does the work of checking a password against a hash, so that
// answers do not tell unknown user names from known ones by their timing.
func (c *authCache) spend(password string) {
	compareHash(c.decoy, []byte(password))
}

func (c *authCache) verify(u store.User, password string) bool {
	m := hmac.New(sha256.New, c.key)
	m.Write([]byte(password))
	mac := m.Sum(nil)
	c.mu.Lock()
	e, cached := c.ok[u.Name]
	c.mu.Unlock()
	if cached && e.hash == u.PasswordHash && hmac.Equal(e.mac, mac) {
		return true
	}
	err := compareHash([]byte(u.PasswordHash), []byte(password))
	// A hash cheaper than the decoy (the demo accounts' minimum cost) is
	// topped up with the decoy's work: a check of a known name then costs
	// at least what one of an unknown name does, and timing tells no
	// demo account from an unknown name.
	if cost, _ := bcrypt.Cost([]byte(u.PasswordHash)); cost < c.cost {
		c.spend(password)
	}
	if err != nil {
		return false
	}
	c.mu.Lock()
	c.ok[u.Name] = authEntry{hash: u.PasswordHash, mac: mac}
	c.mu.Unlock()
	return true
}

// routeRootRef lets a folder ref of `%2F` alone (the root by path) reach the
// handlers: ServeMux does not route a segment that decodes to "/" alone, so
// the segment becomes the root's file id.
func routeRootRef(r *http.Request) *http.Request {
	const prefix = "/api/filesystem/folders/"
	rest, ok := strings.CutPrefix(r.URL.EscapedPath(), prefix)
	if !ok {
		return r
	}
	seg, tail, hasTail := strings.Cut(rest, "/")
	if !strings.EqualFold(seg, "%2F") {
		return r
	}
	escaped := prefix + fmt.Sprint(store.RootID)
	if hasTail {
		escaped += "/" + tail
	}
	path, err := url.PathUnescape(escaped)
	if err != nil {
		return r
	}
	u := *r.URL
	u.Path, u.RawPath = path, escaped
	r2 := *r
	r2.URL = &u
	return &r2
}

// writeJSON answers with code and v as JSON.
func writeJSON(w http.ResponseWriter, code int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		log.Printf("encode answer: %v", err)
		writeFailure(w, http.StatusInternalServerError, "could not encode the answer")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(body)
}

// writeFailure answers with code and the failure body {"status":"failure","reason":...}.
func writeFailure(w http.ResponseWriter, code int, reason string) {
	writeJSON(w, code, model.Failure{Status: model.StatusFailure, Reason: reason})
}

// writeError answers with the status a store error calls for: 404 not found,
// 409 exists or has dependents (naming them in paths), 400 bad input,
// otherwise 500 with a generic reason (the error goes to the log).
func writeError(w http.ResponseWriter, err error) {
	var dependents *store.DependentsError
	switch {
	case errors.As(err, &dependents):
		writeJSON(w, http.StatusConflict, model.Failure{Status: model.StatusFailure,
			Reason: fmt.Sprintf("%s is still used by %s", dependents.Path, strings.Join(dependents.Paths, ", ")),
			Paths:  dependents.Paths})
	case errors.Is(err, store.ErrNotFound):
		writeFailure(w, http.StatusNotFound, err.Error())
	case errors.Is(err, store.ErrExists), errors.Is(err, store.ErrNotEmpty):
		writeFailure(w, http.StatusConflict, err.Error())
	case errors.Is(err, store.ErrBadInput):
		writeFailure(w, http.StatusBadRequest, err.Error())
	default:
		log.Printf("internal error: %v", err)
		writeFailure(w, http.StatusInternalServerError, "internal error")
	}
}

// decodeJSON reads the request body into v, at most Config.MaxBodyBytes,
// as leniently as the real platform reads bodies (lenient.Strict: unquoted
// names and values, `=` between them, whatever the Content-Type) and no more:
// one JSON object, no unknown fields. On failure it answers (400, or 413
// past the cap) and returns false.
func (s *Server) decodeJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		writeFailure(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body exceeds %d bytes", tooBig.Limit))
		return false
	case err != nil:
		writeFailure(w, http.StatusBadRequest, "could not read the request body: "+err.Error())
		return false
	case len(bytes.TrimSpace(raw)) == 0:
		writeFailure(w, http.StatusBadRequest, "request body is empty; a JSON object is expected")
		return false
	}
	body, err := lenient.Strict(raw)
	if err != nil {
		writeFailure(w, http.StatusBadRequest, "malformed JSON body: "+err.Error())
		return false
	}
	if body[0] != '{' {
		writeFailure(w, http.StatusBadRequest, fmt.Sprintf("request body is %s, not a JSON object", jsonKind(body[0])))
		return false
	}
	for coerced := 0; ; coerced++ {
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.DisallowUnknownFields()
		err := dec.Decode(v)
		if err == nil {
			return true
		}
		// Gson takes a number or a boolean for a string field and a string
		// holding one for a number or boolean field; so does this, one
		// value a pass, for a bounded number of passes.
		var wrongType *json.UnmarshalTypeError
		if errors.As(err, &wrongType) && coerced < maxCoercions {
			if want, ok := gsonCoercion(wrongType); ok {
				if retyped, ok := lenient.Retype(body, int(wrongType.Offset), want); ok {
					body = retyped
					reflect.ValueOf(v).Elem().SetZero()
					continue
				}
			}
		}
		writeFailure(w, http.StatusBadRequest, "bad JSON body: "+err.Error())
		return false
	}
}

// maxCoercions bounds the decoding passes one body may take for values of
// another JSON type than their field's (each pass reads the whole body).
const maxCoercions = 128

// gsonCoercion tells the JSON type a value refused for its field's type
// is read as, when Gson would read it so.
func gsonCoercion(e *json.UnmarshalTypeError) (lenient.Type, bool) {
	switch kind := e.Type.Kind(); {
	case kind == reflect.String && (strings.HasPrefix(e.Value, "number") || e.Value == "bool"):
		return lenient.String, true
	case e.Value == "string" && kind == reflect.Bool:
		return lenient.Bool, true
	case e.Value == "string" && (reflect.Int <= kind && kind <= reflect.Float64):
		return lenient.Number, true
	}
	return 0, false
}

// jsonKind names the kind of JSON value that starts with c.
func jsonKind(c byte) string {
	switch c {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// tolerateSlashes routes a path with trailing slashes as the path without
// them (`…/permission/` as `…/permission`), and one with doubled slashes as
// with single ones (a client once asked for `//license/product-id`), for
// every method where ServeMux would only redirect; the root path stays, and
// so does an escaped slash (`%2F`, a ref).
func tolerateSlashes(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		escaped := r.URL.EscapedPath()
		for strings.Contains(escaped, "//") {
			escaped = strings.ReplaceAll(escaped, "//", "/")
		}
		escaped = strings.TrimRight(escaped, "/")
		path, err := url.PathUnescape(escaped)
		if escaped == r.URL.EscapedPath() || escaped == "" || err != nil {
			next.ServeHTTP(w, r)
			return
		}
		u := *r.URL
		u.Path, u.RawPath = path, escaped
		r2 := *r
		r2.URL = &u
		next.ServeHTTP(w, &r2)
	})
}
