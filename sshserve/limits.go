package sshserve

import (
	"net"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// perAddress limits how often one address may connect: a token bucket per
// IP, checked before the SSH handshake so that a flood of connections costs
// no key exchange. Buckets that have filled up again are forgotten, which
// keeps the map as small as the set of addresses that connected lately.
type perAddress struct {
	every time.Duration // one connection per this, on average
	burst int

	mu      sync.Mutex
	buckets map[string]*rate.Limiter
}

func newPerAddress(perMinute int) *perAddress {
	return &perAddress{every: time.Minute / time.Duration(perMinute), burst: perMinute, buckets: map[string]*rate.Limiter{}}
}

// forgetAbove is the map size past which full buckets are dropped.
const forgetAbove = 1024

// allow takes one connection of addr's allowance.
func (p *perAddress) allow(addr net.Addr) bool {
	ip := addr.String()
	if tcp, ok := addr.(*net.TCPAddr); ok {
		ip = tcp.IP.String()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.buckets) > forgetAbove {
		for k, b := range p.buckets {
			if b.Tokens() >= float64(p.burst) {
				delete(p.buckets, k)
			}
		}
	}
	b, ok := p.buckets[ip]
	if !ok {
		b = rate.NewLimiter(rate.Every(p.every), p.burst)
		p.buckets[ip] = b
	}
	return b.Allow()
}
