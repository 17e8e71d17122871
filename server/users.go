package server

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/store"
)

const userManagementPath = "/rest/user-management/"

// userVersion is the version user objects carry, as the platform's do.
const userVersion = "3.1"

func (s *Server) registerUserRoutes(mux *http.ServeMux) {
	p := userManagementPath
	mux.HandleFunc("GET "+p+"users", s.admins(s.listUsers))
	mux.HandleFunc("POST "+p+"users", s.admins(s.createUser))
	mux.HandleFunc("GET "+p+"users/{name}", s.admins(s.readUser))
	mux.HandleFunc("PUT "+p+"users/{name}", s.admins(s.updateUser))
	mux.HandleFunc("DELETE "+p+"users/{name}", s.admins(s.deleteUser))
	mux.HandleFunc("PUT "+p+"password/{name}", s.admins(s.changePassword))
	mux.HandleFunc("GET "+p+"groups", s.admins(s.listGroups))
	mux.HandleFunc("POST "+p+"groups", s.admins(s.createGroup))
	mux.HandleFunc("PUT "+p+"groups/{name}", s.admins(s.renameGroup))
	mux.HandleFunc("DELETE "+p+"groups/{name}", s.admins(s.deleteGroup))
	mux.HandleFunc("GET "+p+"roles", s.admins(s.listRoles))
	mux.HandleFunc("POST "+p+"roles", s.admins(s.createRole))
	mux.HandleFunc("PUT "+p+"roles/{name}", s.admins(s.updateRole))
	mux.HandleFunc("DELETE "+p+"roles/{name}", s.admins(s.deleteRole))
	mux.HandleFunc("GET "+p+"logged-in-user", s.loggedInUser)
}

// defaultMaxResults is the window of the user-management lists when the
// request names none: 10, as on the platform (clients raise it).
const defaultMaxResults = 10

// window reads ?firstResult (default 0) and ?maxResults (default
// defaultMaxResults); on bad input it answers 400 and returns false.
func window(w http.ResponseWriter, r *http.Request) (start, max int, ok bool) {
	first, most := 0, defaultMaxResults
	if !queryCounts(w, r, []string{"firstResult", "maxResults"}, []*int{&first, &most}) {
		return 0, 0, false
	}
	return first, most, true
}

// queryCounts reads each named query parameter present as a whole number
// from 0 into its target, leaving absent ones as they are; on bad input it
// answers 400 and returns false.
func queryCounts(w http.ResponseWriter, r *http.Request, names []string, into []*int) bool {
	for i, name := range names {
		raw := r.URL.Query().Get(name)
		if raw == "" {
			continue
		}
		n, err := strconv.Atoi(raw)
		if err != nil || n < 0 {
			writeFailure(w, http.StatusBadRequest, fmt.Sprintf("%s %q: want a number from 0", name, raw))
			return false
		}
		*into[i] = n
	}
	return true
}

// writePage answers the window of all that the request asks for, in the
// platform's envelope.
func writePage[T any](w http.ResponseWriter, r *http.Request, all []T) {
	start, max, ok := window(w, r)
	if !ok {
		return
	}
	lo := min(start, len(all))
	hi := lo + min(max, len(all)-lo) // max first: lo+max overflows for a huge max
	out := model.Page[T]{MaxResults: max, Total: len(all), Elements: all[lo:hi]}
	if out.Elements == nil {
		out.Elements = []T{}
	}
	writeJSON(w, http.StatusOK, out)
}

// admins lets only administrators through (403 for the others): user
// management is theirs, as on the real platform.
func (s *Server) admins(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !userFrom(r).Admin {
			writeFailure(w, http.StatusForbidden, "user management: administrator rights required")
			return
		}
		h(w, r)
	}
}

// writePeopleError answers a store error of user management: 409 for a
// change that would leave no administrator, else as writeError.
func writePeopleError(w http.ResponseWriter, err error) {
	if errors.Is(err, store.ErrLastAdministrator) {
		writeFailure(w, http.StatusConflict, err.Error())
		return
	}
	writeError(w, err)
}

// userOf is a person as the user-management answers show it.
func userOf(p store.Person) model.User {
	owned := p.Owned
	return model.User{Version: userVersion, Username: p.Name, Email: p.Email, Enabled: p.Enabled,
		Groups: p.Groups, Roles: p.Roles, OwnedFiles: &owned}
}

func (s *Server) listUsers(w http.ResponseWriter, r *http.Request) {
	people, err := s.store.People(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	users := make([]model.User, len(people))
	for i, p := range people {
		users[i] = userOf(p)
	}
	writePage(w, r, users)
}

func (s *Server) readUser(w http.ResponseWriter, r *http.Request) {
	p, err := s.store.PersonByName(r.Context(), r.PathValue("name"))
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, userOf(p))
}

// userBody is a user as a create or an update sends it: the read shape, whose
// fields the platform sets itself (version, expires...) taken and ignored so
// that a client may send back what it read. Absent fields keep their value.
type userBody struct {
	Version               string    `json:"version"`
	Username              *string   `json:"username"`
	Email                 *string   `json:"email"`
	AdditionalInformation string    `json:"additionalInformation"`
	Enabled               *bool     `json:"enabled"`
	Expires               string    `json:"expires"`
	Groups                *[]string `json:"groups"`
	Roles                 *[]string `json:"roles"`
	OwnedFiles            *int      `json:"ownedFiles"`
	Capabilities          []string  `json:"capabilities"`
	Internal              bool      `json:"internal"`
	LastLoginDate         string    `json:"lastLoginDate"`
	LoginCount            int       `json:"loginCount"`
}

func (b userBody) change() store.PersonChange {
	c := store.PersonChange{Email: b.Email, Enabled: b.Enabled}
	if b.Groups != nil {
		c.Groups = nonNilStrings(*b.Groups)
	}
	if b.Roles != nil {
		c.Roles = nonNilStrings(*b.Roles)
	}
	return c
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// createUser adds a user without a password (none is in the platform's
// create body): it cannot log in until PUT /password sets one.
func (s *Server) createUser(w http.ResponseWriter, r *http.Request) {
	var b userBody
	if !s.decodeJSON(w, r, &b) {
		return
	}
	if b.Username == nil || *b.Username == "" {
		writeFailure(w, http.StatusBadRequest, "a new user needs a username")
		return
	}
	name := *b.Username
	err := s.store.InTx(r.Context(), func(tx *store.Tx) error {
		return tx.CreatePerson(r.Context(), name, "", b.change())
	})
	if err != nil {
		writePeopleError(w, err)
		return
	}
	r.SetPathValue("name", name)
	s.readUser(w, r)
}

func (s *Server) updateUser(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	var b userBody
	if !s.decodeJSON(w, r, &b) {
		return
	}
	if b.Username != nil && *b.Username != name {
		writeFailure(w, http.StatusBadRequest, fmt.Sprintf("user %q: a user is not renamed (the body names %q)", name, *b.Username))
		return
	}
	err := s.store.InTx(r.Context(), func(tx *store.Tx) error {
		return tx.UpdatePerson(r.Context(), name, b.change())
	})
	if err != nil {
		writePeopleError(w, err)
		return
	}
	s.readUser(w, r)
}

// deleteUser removes a user; the files it owned pass to the system owner
// (store.DeletePerson says why).
func (s *Server) deleteUser(w http.ResponseWriter, r *http.Request) {
	err := s.store.InTx(r.Context(), func(tx *store.Tx) error {
		_, err := tx.DeletePerson(r.Context(), r.PathValue("name"))
		return err
	})
	if err != nil {
		writePeopleError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, model.Success{Status: model.StatusSuccess})
}

// maxPasswordBytes is bcrypt's bound: it reads no further.
const maxPasswordBytes = 72

// changePassword takes the new password as the raw body, not JSON, as the
// platform does. Neither the password nor its length is ever echoed.
func (s *Server) changePassword(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	body, err := io.ReadAll(io.LimitReader(r.Body, maxPasswordBytes+1))
	switch {
	case err != nil:
		writeFailure(w, http.StatusBadRequest, "password: could not read the body")
		return
	case len(body) == 0:
		writeFailure(w, http.StatusBadRequest, "password: the body is empty; send the new password as plain text")
		return
	case len(body) > maxPasswordBytes:
		writeFailure(w, http.StatusBadRequest, fmt.Sprintf("password: longer than %d bytes", maxPasswordBytes))
		return
	case !utf8.Valid(body):
		writeFailure(w, http.StatusBadRequest, "password: not UTF-8 text")
		return
	}
	if _, err := s.store.PersonByName(r.Context(), name); err != nil {
		writeError(w, err)
		return
	}
	hash, err := store.HashPassword(string(body), s.cfg.PasswordCost)
	if err != nil {
		writeError(w, err)
		return
	}
	if err := s.store.SetPassword(r.Context(), name, hash); err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, model.Success{Status: model.StatusSuccess})
}

func (s *Server) listGroups(w http.ResponseWriter, r *http.Request) {
	groups, err := s.store.Groups(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	out := make([]model.Group, len(groups))
	for i, g := range groups {
		out[i] = model.Group{Name: g.Name}
	}
	writePage(w, r, out)
}

// nameBody is a group as a create or a rename sends it.
type nameBody struct {
	Name string `json:"name"`
}

func (s *Server) createGroup(w http.ResponseWriter, r *http.Request) {
	var b nameBody
	if !s.decodeJSON(w, r, &b) {
		return
	}
	if _, err := s.store.CreateGroup(r.Context(), b.Name); err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, model.Group{Name: b.Name})
}

func (s *Server) renameGroup(w http.ResponseWriter, r *http.Request) {
	var b nameBody
	if !s.decodeJSON(w, r, &b) {
		return
	}
	if err := s.store.RenameGroup(r.Context(), r.PathValue("name"), b.Name); err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, model.Group{Name: b.Name})
}

// deleteGroup removes a group, its memberships and what was granted to it.
func (s *Server) deleteGroup(w http.ResponseWriter, r *http.Request) {
	if err := s.store.DeleteGroup(r.Context(), r.PathValue("name")); err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, model.Success{Status: model.StatusSuccess})
}

func (s *Server) listRoles(w http.ResponseWriter, r *http.Request) {
	roles, err := s.store.Roles(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	out := make([]model.Role, len(roles))
	for i, role := range roles {
		out[i] = model.Role{Name: role.Name, Capabilities: nonNilStrings(role.Capabilities)}
	}
	writePage(w, r, out)
}

// roleBody is a role as a create or an update sends it; an update without
// capabilities keeps them.
type roleBody struct {
	Name         string    `json:"name"`
	Capabilities *[]string `json:"capabilities"`
}

func (b roleBody) role() store.Role {
	r := store.Role{Name: b.Name}
	if b.Capabilities != nil {
		r.Capabilities = nonNilStrings(*b.Capabilities)
	}
	return r
}

func (s *Server) createRole(w http.ResponseWriter, r *http.Request) {
	var b roleBody
	if !s.decodeJSON(w, r, &b) {
		return
	}
	role := b.role()
	if err := s.store.CreateRole(r.Context(), role); err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, model.Role{Name: role.Name, Capabilities: nonNilStrings(role.Capabilities)})
}

func (s *Server) updateRole(w http.ResponseWriter, r *http.Request) {
	var b roleBody
	if !s.decodeJSON(w, r, &b) {
		return
	}
	role := b.role()
	if role.Name == "" {
		role.Name = r.PathValue("name")
	}
	if err := s.store.UpdateRole(r.Context(), r.PathValue("name"), role); err != nil {
		writeError(w, err)
		return
	}
	s.writeRole(w, r, role.Name)
}

// writeRole answers the role as the list shows it.
func (s *Server) writeRole(w http.ResponseWriter, r *http.Request, name string) {
	roles, err := s.store.Roles(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	for _, role := range roles {
		if role.Name == name {
			writeJSON(w, http.StatusOK, model.Role{Name: role.Name, Capabilities: nonNilStrings(role.Capabilities)})
			return
		}
	}
	writeFailure(w, http.StatusNotFound, fmt.Sprintf("role %q: not found", name))
}

// deleteRole removes a role; its users keep their other roles, or get ANALYST.
func (s *Server) deleteRole(w http.ResponseWriter, r *http.Request) {
	err := s.store.InTx(r.Context(), func(tx *store.Tx) error {
		return tx.DeleteRole(r.Context(), r.PathValue("name"))
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, model.Success{Status: model.StatusSuccess})
}

// loggedInUser answers the caller's own account, which every user may read,
// with the capabilities its roles grant.
func (s *Server) loggedInUser(w http.ResponseWriter, r *http.Request) {
	p, err := s.store.PersonByName(r.Context(), userFrom(r).Name)
	if err != nil {
		writeError(w, err)
		return
	}
	roles, err := s.store.Roles(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	caps := []string{}
	for _, role := range roles {
		if slices.Contains(p.Roles, role.Name) {
			caps = append(caps, role.Capabilities...)
		}
	}
	slices.Sort(caps)
	u := userOf(p)
	u.OwnedFiles = nil
	writeJSON(w, http.StatusOK, model.LoggedInUser{User: u, Capabilities: slices.Compact(caps)})
}
