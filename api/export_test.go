package api

import "strings"

// ReadWaiters tells how many callers wait for the read of path that is in
// flight, 0 when none is.
func ReadWaiters(c *Client, path string) int {
	c.reads.mu.Lock()
	defer c.reads.mu.Unlock()
	for key, f := range c.reads.inFlight {
		if strings.HasPrefix(key, path+"?") {
			return f.waiters
		}
	}
	return 0
}
