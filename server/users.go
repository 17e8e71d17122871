package server

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/store"
)

const userManagementPath = "/rest/user-management/"

func (s *Server) registerUserRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET "+userManagementPath+"users", s.listUsers)
	mux.HandleFunc("GET "+userManagementPath+"groups", s.listGroups)
	mux.HandleFunc("GET "+userManagementPath+"logged-in-user", s.loggedInUser)
}

// defaultMaxResults is the window of the user-management lists when the
// request names none.
const defaultMaxResults = 1000

// window reads ?maxResults (default defaultMaxResults) and ?startIndex
// (default 0); on bad input it answers 400 and returns false.
func window(w http.ResponseWriter, r *http.Request) (start, max int, ok bool) {
	start, max = 0, defaultMaxResults
	for _, p := range []struct {
		name string
		into *int
	}{{"startIndex", &start}, {"maxResults", &max}} {
		raw := r.URL.Query().Get(p.name)
		if raw == "" {
			continue
		}
		n, err := strconv.Atoi(raw)
		if err != nil || n < 0 {
			writeFailure(w, http.StatusBadRequest, fmt.Sprintf("%s %q: want a number from 0", p.name, raw))
			return 0, 0, false
		}
		*p.into = n
	}
	return start, max, true
}

// page returns the part of n items the window asks for, as slice bounds;
// it bounds max by what is left first, since lo+max overflows for a huge max.
func page(n, start, max int) (int, int) {
	lo := min(start, n)
	return lo, lo + min(max, n-lo)
}

// administrator lets only administrators through (403 for the others):
// the user-management lists are theirs, as on the real platform.
func administrator(w http.ResponseWriter, r *http.Request) bool {
	if !userFrom(r).Admin {
		writeFailure(w, http.StatusForbidden, "user management: administrator rights required")
		return false
	}
	return true
}

// userOf is an account as the user-management answers show it; the embedded
// platform has no e-mail addresses and no disabled accounts.
func userOf(a store.Account) model.User {
	u := model.User{Username: a.Name, Enabled: true, Groups: a.Groups, Roles: []string{model.RoleAnalyst}}
	if a.Admin {
		u.Roles = []string{model.RoleAdmin}
	}
	if u.Groups == nil {
		u.Groups = []string{}
	}
	return u
}

func (s *Server) listUsers(w http.ResponseWriter, r *http.Request) {
	start, max, ok := window(w, r)
	if !ok || !administrator(w, r) {
		return
	}
	accounts, err := s.store.Accounts(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	lo, hi := page(len(accounts), start, max)
	out := model.Users{MaxResults: max, Total: len(accounts), Elements: []model.User{}}
	for _, a := range accounts[lo:hi] {
		out.Elements = append(out.Elements, userOf(a))
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) listGroups(w http.ResponseWriter, r *http.Request) {
	start, max, ok := window(w, r)
	if !ok || !administrator(w, r) {
		return
	}
	groups, err := s.store.Groups(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	lo, hi := page(len(groups), start, max)
	out := model.Groups{MaxResults: max, Total: len(groups), Elements: []model.Group{}}
	for _, g := range groups[lo:hi] {
		out.Elements = append(out.Elements, model.Group{Name: g.Name})
	}
	writeJSON(w, http.StatusOK, out)
}

// loggedInUser answers the caller's own account, which every user may read.
func (s *Server) loggedInUser(w http.ResponseWriter, r *http.Request) {
	u := userFrom(r)
	accounts, err := s.store.Accounts(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	for _, a := range accounts {
		if a.Name == u.Name {
			writeJSON(w, http.StatusOK, userOf(a))
			return
		}
	}
	writeFailure(w, http.StatusNotFound, fmt.Sprintf("user %q is gone", u.Name))
}
