package common

import "context"

// Early is a read started before the program runs, for an answer the first
// frame needs. Started by its pane, a read would wait for the terminal's
// set-up, the first views and two trips through the event loop before its
// request left: milliseconds that can miss the renderer's first tick. The
// pane whose first read it is takes it with Or.
type Early[T any] struct {
	answer chan earlyAnswer[T]
	taken  bool // by Or, on the UI goroutine
}

type earlyAnswer[T any] struct {
	value T
	err   error
}

// StartEarly starts read with ctx now, in its own goroutine.
func StartEarly[T any](ctx context.Context, read func(context.Context) (T, error)) *Early[T] {
	e := &Early[T]{answer: make(chan earlyAnswer[T], 1)}
	go func() {
		value, err := read(ctx)
		e.answer <- earlyAnswer[T]{value, err}
	}()
	return e
}

// Or returns, the first time, a read that waits for the early answer; from
// then on, and for a nil Early, read itself. Call it on the UI goroutine,
// where the read's task is made. A ctx that ends before the early answer
// comes gets read's own error for it (read returns at once on an ended
// ctx), so a timeout reads as it would without the early start.
func (e *Early[T]) Or(read func(context.Context) (T, error)) func(context.Context) (T, error) {
	if e == nil || e.taken {
		return read
	}
	e.taken = true
	return func(ctx context.Context) (T, error) {
		select {
		case a := <-e.answer:
			return a.value, a.err
		case <-ctx.Done():
			return read(ctx)
		}
	}
}
