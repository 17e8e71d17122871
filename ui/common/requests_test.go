package common

import "testing"

// TestRequests runs the steps, keeping each ticket that Next or Latest
// gives, then checks which of them Current still wants.
func TestRequests(t *testing.T) {
	tests := []struct {
		name  string
		steps []string // next, latest, reset
		want  []bool   // per ticket kept, in order
	}{
		{"nothing asked", []string{"latest"}, nil},
		{"the answer to the one request is wanted", []string{"next"}, []bool{true}},
		{"a new request drops the one before", []string{"next", "next"}, []bool{false, true}},
		{"reset drops the outstanding one", []string{"next", "reset"}, []bool{false}},
		{"a request after a reset is wanted, not the one before", []string{"next", "reset", "next"}, []bool{false, true}},
		{"requests sharing Latest are all wanted", []string{"next", "latest", "latest"}, []bool{true, true, true}},
		{"a Next drops every request sharing Latest", []string{"next", "latest", "next", "latest"}, []bool{false, false, true, true}},
		{"nothing shares Latest after a reset", []string{"next", "reset", "latest"}, []bool{false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r Requests
			var kept []Ticket
			for _, step := range tt.steps {
				switch step {
				case "next":
					kept = append(kept, r.Next())
				case "latest":
					if l := r.Latest(); l != 0 {
						kept = append(kept, l)
					}
				case "reset":
					r.Reset()
				}
			}
			if len(kept) != len(tt.want) {
				t.Fatalf("kept %d tickets, want %d", len(kept), len(tt.want))
			}
			for i, ticket := range kept {
				if got := r.Current(ticket); got != tt.want[i] {
					t.Errorf("ticket %d: wanted %v, want %v", i, got, tt.want[i])
				}
			}
			if r.Current(0) {
				t.Error("the zero ticket is wanted")
			}
		})
	}
}

// TestTicketsAreNeverAlike: a Requests that replaces another (a view
// opened again, a new graph for the same connection) issues tickets the
// old one's answers never carry.
func TestTicketsAreNeverAlike(t *testing.T) {
	var old, fresh Requests
	stale := old.Next()
	if fresh.Current(stale) || fresh.Next() == stale {
		t.Error("a new Requests takes an answer meant for the one it replaced")
	}
}
