package common_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/ui/common"
)

// TestEarlyAnswersTheFirstReadOnly: the first Or waits for the read started
// early and does not read again, whatever it answered (a server down at the
// start is told as any first read's failure); later ones, and a nil Early,
// read anew; a context that ends first gets the read's own error for it.
func TestEarlyAnswersTheFirstReadOnly(t *testing.T) {
	fresh := func(ctx context.Context) (string, error) {
		if err := ctx.Err(); err != nil {
			return "", errors.Join(errors.New("fresh read"), err)
		}
		return "fresh", nil
	}
	early := func(context.Context) (string, error) { return "early", nil }
	never := func(ctx context.Context) (string, error) { <-ctx.Done(); return "", ctx.Err() }
	down := errors.New("connection refused")
	failed := func(context.Context) (string, error) { return "", down }

	ended, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name    string
		early   func(context.Context) (string, error) // nil: no Early
		ctx     context.Context
		takes   int // Or calls before the one checked
		want    string
		wantErr error
	}{
		{name: "first read takes the early answer", early: early, ctx: context.Background(), want: "early"},
		{name: "second read reads anew", early: early, ctx: context.Background(), takes: 1, want: "fresh"},
		{name: "no early read", ctx: context.Background(), want: "fresh"},
		{name: "an early read that failed answers its error, not a fresh read", early: failed, ctx: context.Background(), wantErr: down},
		{name: "ended context gets the read's error", early: never, ctx: ended, wantErr: context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			started, stop := context.WithTimeout(context.Background(), 5*time.Second)
			defer stop()
			var e *common.Early[string]
			if tt.early != nil {
				e = common.StartEarly(started, tt.early)
			}
			for range tt.takes {
				e.Or(fresh)
			}
			got, err := e.Or(fresh)(tt.ctx)
			if got != tt.want || !errors.Is(err, tt.wantErr) {
				t.Fatalf("read gave %q, %v; want %q, %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}
