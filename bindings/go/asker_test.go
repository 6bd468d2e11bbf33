package toolguard

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// needsApproval is a call the built-in policy asks about.
func needsApproval() Call {
	call := bash("terraform apply")
	call.Context.SessionID = "session-1"
	call.Context.Roots = []string{"/srv/shared"}
	return call
}

func TestAskerAlwaysAllowIsRemembered(t *testing.T) {
	g := newGuard(t, builtinOptions(t))
	var asked atomic.Int32
	var got AskRequest
	err := g.SetAsker(func(ctx context.Context, req AskRequest) AskAnswer {
		asked.Add(1)
		got = req
		return AskAnswer{Outcome: AskAlwaysAllow, Option: 0, Scope: "session"}
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		d, err := g.Check(context.Background(), needsApproval())
		if err != nil || d.Verdict != VerdictAllow {
			t.Fatalf("check %d: %+v, %v; want allow", i, d, err)
		}
	}
	if n := asked.Load(); n != 1 {
		t.Fatalf("asked %d times; want 1 (the second call is remembered)", n)
	}
	if got.Call.Tool != "Bash" || got.Call.Context.SessionID != "session-1" ||
		len(got.Call.Context.Roots) != 1 || len(got.Options) == 0 || len(got.Scopes) == 0 ||
		got.Decision.Verdict == "" || len(got.Raw) == 0 {
		t.Fatalf("request: %+v", got)
	}
	// Without the asker, a new session's call is ask again.
	if err := g.SetAsker(nil); err != nil {
		t.Fatal(err)
	}
	call := needsApproval()
	call.Context.SessionID = "session-2"
	if d, _ := g.Check(context.Background(), call); d.Verdict != VerdictAsk {
		t.Fatalf("no asker: %+v; want ask", d)
	}
}

func TestAskerDenyAndPanic(t *testing.T) {
	g := newGuard(t, builtinOptions(t))
	g.SetAsker(func(ctx context.Context, req AskRequest) AskAnswer {
		return AskAnswer{Outcome: AskDeny, Reason: "not today"}
	})
	d, err := g.Check(context.Background(), needsApproval())
	if err != nil || d.Verdict != VerdictDeny || !strings.Contains(d.Reason, "not today") {
		t.Fatalf("deny: %+v, %v", d, err)
	}
	g.SetAsker(func(ctx context.Context, req AskRequest) AskAnswer { panic("boom") })
	d, err = g.Check(context.Background(), needsApproval())
	if err != nil || d.Verdict != VerdictDeny || !strings.Contains(d.Reason, "boom") {
		t.Fatalf("panic: %+v, %v", d, err)
	}
	// A bad answer (a scope that was not offered) denies.
	g.SetAsker(func(ctx context.Context, req AskRequest) AskAnswer {
		return AskAnswer{Outcome: AskAlwaysAllow, Scope: "galaxy"}
	})
	if d, _ := g.Check(context.Background(), needsApproval()); d.Verdict != VerdictDeny {
		t.Fatalf("bad answer: %+v", d)
	}
	// The zero answer is no answer: deny.
	g.SetAsker(func(ctx context.Context, req AskRequest) AskAnswer { return AskAnswer{} })
	if d, _ := g.Check(context.Background(), needsApproval()); d.Verdict != VerdictDeny {
		t.Fatalf("zero answer: %+v", d)
	}
}

func TestCancelDuringAskDenies(t *testing.T) {
	g := newGuard(t, builtinOptions(t))
	asking := make(chan struct{})
	never := make(chan struct{}) // the asker ignores ctx: the binding must not wait for it
	defer close(never)
	g.SetAsker(func(ctx context.Context, req AskRequest) AskAnswer {
		close(asking)
		<-never
		return AskAnswer{Outcome: AskAllowOnce}
	})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-asking
		cancel()
	}()
	start := time.Now()
	d, err := g.Check(ctx, needsApproval())
	if !errors.Is(err, context.Canceled) || d.Verdict != VerdictDeny {
		t.Fatalf("%+v, %v; want deny and context.Canceled", d, err)
	}
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Fatalf("took %v after the cancel", elapsed)
	}
}

func TestApprovalTimeoutDenies(t *testing.T) {
	opts := builtinOptions(t)
	opts.ApprovalTimeoutMS = Millis(100 * time.Millisecond)
	g := newGuard(t, opts)
	done := make(chan struct{})
	g.SetAsker(func(ctx context.Context, req AskRequest) AskAnswer {
		<-ctx.Done() // cancelled once the guard stops waiting
		close(done)
		return AskAnswer{Outcome: AskAllowOnce}
	})
	d, err := g.Check(context.Background(), needsApproval())
	if err != nil || d.Verdict != VerdictDeny || !strings.Contains(d.Reason, "100 ms") {
		t.Fatalf("%+v, %v; want a deny after the timeout", d, err)
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the asker's context was not cancelled")
	}
}

type ctxKey struct{}

// Each ask reaches the context of the Check that caused it, with many checks at once.
func TestConcurrentAsksGetTheirOwnContext(t *testing.T) {
	g := newGuard(t, builtinOptions(t))
	g.SetAsker(func(ctx context.Context, req AskRequest) AskAnswer {
		if ctx.Value(ctxKey{}) == "allow" {
			return AskAnswer{Outcome: AskAllowOnce}
		}
		<-ctx.Done()
		return AskAnswer{Outcome: AskAllowOnce} // too late: the ask was denied
	})
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for i := 0; i < 32; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			ctx := context.WithValue(context.Background(), ctxKey{}, "allow")
			want := VerdictAllow
			if i%2 == 1 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(context.WithValue(context.Background(), ctxKey{}, "wait"), 50*time.Millisecond)
				defer cancel()
				want = VerdictDeny
			}
			d, err := g.Check(ctx, needsApproval())
			if d.Verdict != want || (want == VerdictDeny) != (err != nil) {
				errs <- fmt.Sprintf("check %d: %v, %v; want %s", i, d, err, want)
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
