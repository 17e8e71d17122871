package server

import (
	"math/rand/v2"
	"path"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/server/store"
	"golang.org/x/crypto/bcrypt"
)

// TestServedDirsSharedWithAnother: a connection's directory is shared when
// another serves it, one above it or one inside it, at separator
// boundaries; the connection's own entry (overwritten, it is still there)
// never counts.
func TestServedDirsSharedWithAnother(t *testing.T) {
	for _, c := range []struct {
		name   string
		served []string // the connection's own directory included
		dir    string
		want   bool
	}{
		{"alone", []string{"/data/a"}, "/data/a", false},
		{"itself when overwritten", []string{"/data/a", "/other"}, "/data/a", false},
		{"equal", []string{"/data/a", "/data/a"}, "/data/a", true},
		{"parent served", []string{"/data", "/data/a"}, "/data/a", true},
		{"grandparent served", []string{"/data", "/data/a/b/c"}, "/data/a/b/c", true},
		{"child served", []string{"/data/a", "/data/a/b"}, "/data/a", true},
		{"grandchild served", []string{"/data/a", "/data/a/b/c"}, "/data/a", true},
		{"sibling with a shared prefix", []string{"/data/a", "/data/ab", "/data/a-b", "/data/a.b"}, "/data/a", false},
		{"longer sibling with a shared prefix", []string{"/data/a", "/data/ab"}, "/data/ab", false},
		{"child after siblings that sort before it", []string{"/data/a", "/data/a-b", "/data/a.b", "/data/a/z"}, "/data/a", true},
		{"parent before siblings that sort between", []string{"/data", "/data-x", "/data.y", "/data/a"}, "/data/a", true},
		{"prefix not at a separator", []string{"/dat", "/data/a"}, "/data/a", false},
		{"root alone", []string{"/"}, "/", false},
		{"root contains everything", []string{"/", "/data"}, "/", true},
		{"everything lies in root", []string{"/", "/data"}, "/data", true},
		{"root twice", []string{"/", "/"}, "/", true},
		{"trailing separator above", []string{"/data/", "/data/a"}, "/data/a", true},
		{"trailing separator inside", []string{"/data/", "/data/a"}, "/data/", true},
		{"trailing separator is not a sibling", []string{"/data/", "/datab"}, "/data/", false},
		{"restored in one archive, the outer", []string{"/srv/x", "/srv/x/y"}, "/srv/x", true},
		{"restored in one archive, the inner", []string{"/srv/x", "/srv/x/y"}, "/srv/x/y", true},
		{"restored in one archive, apart", []string{"/srv/x", "/srv/y"}, "/srv/y", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dirOf := make(map[int64]string, len(c.served))
			for i, dir := range c.served {
				dirOf[int64(i)] = dir
			}
			if got := newServedDirs(dirOf).sharedWithAnother(c.dir); got != c.want {
				t.Fatalf("%q among %q: shared %v, want %v", c.dir, c.served, got, c.want)
			}
		})
	}
}

// TestServedDirsAgreeWithEveryPair: on random trees of directories with
// shared prefixes, sharedWithAnother answers as comparing dir with every
// other entry at separator boundaries does, the rule's first form.
func TestServedDirsAgreeWithEveryPair(t *testing.T) {
	within := func(path, dir string) bool {
		return strings.HasPrefix(path, strings.TrimSuffix(dir, "/")+"/")
	}
	parts := []string{"a", "ab", "a-b", "a.b", "b"}
	rnd := rand.New(rand.NewPCG(1, 17))
	for range 2000 {
		dirOf := map[int64]string{}
		for id := range int64(1 + rnd.IntN(6)) {
			dir := "/"
			for range rnd.IntN(4) {
				dir = path.Join(dir, parts[rnd.IntN(len(parts))])
			}
			dirOf[id] = dir
		}
		served := newServedDirs(dirOf)
		for id, dir := range dirOf {
			want := false
			for other, otherDir := range dirOf {
				want = want || other != id && (dir == otherDir || within(dir, otherDir) || within(otherDir, dir))
			}
			if got := served.sharedWithAnother(dir); got != want {
				t.Fatalf("%q among %q: shared %v, want %v", dir, served, got, want)
			}
		}
	}
}

// TestEveryPasswordCheckCostsAtLeastTheDecoy is the reproduction: a demo
// account's hash has bcrypt's minimum cost (4), the decoy of an unknown
// name cost 10, so a wrong password answered 64 times faster for a demo
// name than for an unknown one. Weighed in bcrypt rounds (2^cost), every
// check of a known name costs at least the decoy's.
func TestEveryPasswordCheckCostsAtLeastTheDecoy(t *testing.T) {
	var rounds int
	// The rounds are counted, not run: under -race a check at cost 10 takes seconds.
	compareHash = func(hash, password []byte) error {
		cost, _ := bcrypt.Cost(hash)
		rounds += 1 << cost
		if string(password) != "viewer" {
			return bcrypt.ErrMismatchedHashAndPassword
		}
		return nil
	}
	defer func() { compareHash = bcrypt.CompareHashAndPassword }()
	cheap, err := bcrypt.GenerateFromPassword([]byte("viewer"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	for _, cost := range []int{bcrypt.DefaultCost, bcrypt.MinCost + 2} {
		c, err := newAuthCache(cost)
		if err != nil {
			t.Fatal(err)
		}
		rounds = 0
		c.spend("guess")
		if unknown := rounds; unknown != 1<<cost {
			t.Errorf("cost %d: an unknown name costs %d rounds, want %d", cost, unknown, 1<<cost)
		}
		for _, password := range []string{"guess", "viewer"} {
			rounds = 0
			c.verify(store.User{Name: "viewer", PasswordHash: string(cheap)}, password)
			if rounds < 1<<cost {
				t.Errorf("cost %d: checking %q against a demo hash costs %d rounds, an unknown name %d", cost, password, rounds, 1<<cost)
			}
		}
	}
}
