package model

// User is one account as `/rest/user-management/users` lists and reads it
// and as a create or an update sends it (an update without Username). It
// has no password field: passwords travel only in the body of the password
// change, as raw text.
type User struct {
	Version               string   `json:"version,omitempty"`
	Username              string   `json:"username,omitempty"`
	Email                 string   `json:"email"`
	AdditionalInformation string   `json:"additionalInformation,omitempty"`
	Enabled               bool     `json:"enabled"`
	Expires               string   `json:"expires"`
	Groups                []string `json:"groups"`
	Roles                 []string `json:"roles"`
	// OwnedFiles is how many files of the tree the user owns; only the
	// embedded platform says (nil from the real one), so that the console
	// can tell before a delete what passes to the system owner.
	OwnedFiles *int `json:"ownedFiles,omitempty"`
}

// LoggedInUser is the caller's own account (`/rest/user-management/logged-in-user`).
type LoggedInUser struct {
	User
	Capabilities  []string `json:"capabilities"`
	Internal      bool     `json:"internal"`
	LastLoginDate string   `json:"lastLoginDate"`
	LoginCount    int      `json:"loginCount"`
}

// Page is one window of a user-management list: MaxResults asked for,
// Total in the whole list, Elements in this window.
type Page[T any] struct {
	MaxResults int `json:"maxResults"`
	Total      int `json:"total"`
	Elements   []T `json:"elements"`
}

// Users is a window of the users list.
type Users = Page[User]

// Group is one group.
type Group struct {
	Name string `json:"name"`
}

// Groups is a window of the groups list.
type Groups = Page[Group]

// Role is one role with the capabilities it grants.
type Role struct {
	Name         string   `json:"name"`
	Capabilities []string `json:"capabilities"`
}

// Roles is a window of the roles list.
type Roles = Page[Role]

// Roles of the user-management answers that every platform has.
const (
	RoleAdmin   = "ADMIN"
	RoleAnalyst = "ANALYST"
)

// LicenseDetails is `/rest/license-details`, PascalCase as the platform
// sends it (and `LicenseVolumelimitInBytes` with its lower-case l). Dates
// are in the `Jan 2, 2006 3:04:05 PM` layout; a negative volume limit is no limit.
type LicenseDetails struct {
	ProductID                   string `json:"ProductId"`
	ProductVersion              string `json:"ProductVersion"`
	LicenseHolder               string `json:"LicenseHolder"`
	LicenseType                 string `json:"LicenseType"`
	LicenseStartDate            string `json:"LicenseStartDate"`
	LicenseExpirationDate       string `json:"LicenseExpirationDate"`
	LicenseVolumePeriodInMonths int    `json:"LicenseVolumePeriodInMonths"`
	LicenseVolumeLimitInBytes   int64  `json:"LicenseVolumelimitInBytes"`
	TotalVolumeConsumedInBytes  int64  `json:"TotalVolumeConsumedInBytes"`
}

// ProductID is `/license/product-id` as the embedded platform answers it
// (the real platform's shape is not documented).
type ProductID struct {
	ProductID      string `json:"ProductId"`
	ProductVersion string `json:"ProductVersion"`
}
