package model

import (
	"slices"
	"strings"
	"unicode"
)

// FileInfo is the `file` object of a configuration's representation.
type FileInfo struct {
	UUID        string `json:"uuid"`
	Path        string `json:"path"`
	Description string `json:"description"`
	Name        string `json:"name"`
}

// DBType is the database kind of a database connection.
type DBType struct {
	Name string `json:"name"`
}

// Connection is the read response of a connection.
type Connection = Configuration

// Connection property keys seen on the wire.
const (
	PropUserName          = "user_name"
	PropPassword          = "password"
	PropConnectionURL     = "key.connectionUrl"
	PropDataStoreTemplate = "dataStoreTemplate"
	PropDataStoreUsage    = "dataStoreUsage"
)

// secretNames are property keys the real platform keeps secret whose names
// do not end in a secret's word.
var secretNames = []string{"sshkey", "tableau.password"}

// secretEnds are the words a secret's name ends in, whatever its case and
// separators: password, secret_key, oauth.clientSecret, accessKey,
// fs.s3a.session.token, google.credentials.
var secretEnds = []string{"password", "passwd", "pwd", "passphrase", "secret", "key", "token", "credential", "credentials"}

// secretPairs are two words that make a name a secret wherever they sit in
// it (fs.azure.account.key.<account>.blob.core.windows.net).
var secretPairs = [][2]string{{"account", "key"}, {"private", "key"}, {"secret", "key"}, {"access", "key"}}

// IsSecretProperty reports whether a name holds a secret: a property key,
// a hadoopProperties key or any other member of a configuration. Such
// values are stored sealed, returned encoded and masked in the console.
// A name is a secret when it ends in one of secretEnds, holds one of
// secretPairs as words (split at anything but letters and digits, and
// between a lower-case letter and a capital), or is sshKey or
// tableau.password, whatever its case. Names that only mention a secret
// (passwordHint, keyspace) are not.
func IsSecretProperty(key string) bool {
	lower := strings.ToLower(key)
	for _, end := range secretEnds {
		if strings.HasSuffix(lower, end) {
			return true
		}
	}
	if slices.Contains(secretNames, lower) {
		return true
	}
	// A pair can stand in a name only if its last word does: most names are
	// settled here without being split (a restore asks for every member of
	// every file it reads).
	if !slices.ContainsFunc(secretPairs, func(p [2]string) bool { return strings.Contains(lower, p[1]) }) {
		return false
	}
	words := nameWords(key)
	for i, w := range words {
		if i > 0 && slices.Contains(secretPairs, [2]string{words[i-1], w}) {
			return true
		}
	}
	return false
}

// nameWords splits a name into lower-cased words at anything but letters
// and digits and where a lower-case letter meets a capital (clientSecret).
func nameWords(name string) []string {
	var words []string
	var word []rune
	prevLower := false
	flush := func() {
		if len(word) > 0 {
			words = append(words, strings.ToLower(string(word)))
			word = word[:0]
		}
	}
	for _, r := range name {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			flush()
		}
		word = append(word, r)
		prevLower = unicode.IsLower(r)
	}
	flush()
	return words
}

// FileEntry is one entry of a per-kind list: the connections list of the
// spec, and the import job, data link, workbook, export job and infographic
// lists of the real platform, which have the same shape. ID is the
// configuration id.
type FileEntry struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Path        string `json:"path"`
	UUID        string `json:"uuid"`
}

// ConnectionEntry is one entry of the connections list.
type ConnectionEntry = FileEntry

// ConnectionCreated is the answer of a connection create.
type ConnectionCreated struct {
	ConfigurationID int64  `json:"configuration-id"`
	Status          string `json:"status"`
}

// DependencyFile is the `file` object of a dependency entry.
type DependencyFile struct {
	Path        string `json:"path"`
	Name        string `json:"name"`
	Type        string `json:"type"`
	Description string `json:"description"`
	UUID        string `json:"uuid"`
}

// Dependency is one entry of a dependencies answer; ID is its configuration id.
type Dependency struct {
	ID   int64          `json:"id"`
	File DependencyFile `json:"file"`
}

// Dependencies is the answer of the dependencies endpoints.
type Dependencies struct {
	Dependencies []Dependency `json:"dependencies"`
}

// Directions of the dependencies endpoints; "" asks for both.
const (
	DirectionUpstream   = "upstream"
	DirectionDownstream = "downstream"
)
