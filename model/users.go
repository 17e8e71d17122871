package model

// User is one account as `/rest/user-management/users` lists it and as
// `/rest/user-management/logged-in-user` answers it.
type User struct {
	Username string   `json:"username"`
	Email    string   `json:"email"`
	Enabled  bool     `json:"enabled"`
	Groups   []string `json:"groups"`
	Roles    []string `json:"roles"`
}

// Users is the users list: a window of MaxResults from Total.
type Users struct {
	MaxResults int    `json:"maxResults"`
	Total      int    `json:"total"`
	Elements   []User `json:"elements"`
}

// Group is one entry of the groups list.
type Group struct {
	Name string `json:"name"`
}

// Groups is the groups list, windowed as Users is.
type Groups struct {
	MaxResults int     `json:"maxResults"`
	Total      int     `json:"total"`
	Elements   []Group `json:"elements"`
}

// Roles of the user-management answers.
const (
	RoleAdmin   = "ADMIN"
	RoleAnalyst = "ANALYST"
)
