package toolguard

// The asker: who is asked when a call needs a person's approval. The C API
// calls goToolguardAsk on the checking thread; the asker runs on its own
// goroutine and its answer goes back through tg_ask_answer.

/*
#include <stdint.h>
#include "toolguard/toolguard.h"
*/
import "C"

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/cgo"
)

// AskRequest is a call waiting for a person's answer.
type AskRequest struct {
	Call     Call            `json:"call"`     // the call
	Decision DecisionDetails `json:"decision"` // why it needs approval
	// What an always-allow answer may remember (AskAnswer.Option indexes it).
	Options []ApprovalOption `json:"options"`
	// Where it may be remembered: "session", "project", "agent", "global".
	Scopes    []string        `json:"scopes"`
	TimeoutMS int64           `json:"timeout_ms"` // how long the guard waits (0: no limit)
	Raw       json.RawMessage `json:"-"`          // the whole request JSON
}

// ApprovalOption is one thing an always-allow answer can remember.
type ApprovalOption struct {
	Binding     string `json:"binding"` // "exact", "pattern" or "tool"
	Value       string `json:"value"`
	Description string `json:"description"`
}

// AskOutcome is a person's answer.
type AskOutcome string

// The answers.
const (
	AskAllowOnce   AskOutcome = "allow-once"   // run this call
	AskAlwaysAllow AskOutcome = "always-allow" // run it and remember Option in Scope
	AskDeny        AskOutcome = "deny"         // do not run it; Reason tells the model why
)

// AskAnswer answers an AskRequest. Anything but a valid answer denies.
type AskAnswer struct {
	Outcome AskOutcome
	Option  int    // always-allow: an index into AskRequest.Options
	Scope   string // always-allow: one of AskRequest.Scopes
	Reason  string // optional: the text the model reads
}

// MarshalJSON writes the answer as tg_ask_answer reads it.
func (a AskAnswer) MarshalJSON() ([]byte, error) {
	out := map[string]any{"outcome": a.Outcome}
	if a.Outcome == AskAlwaysAllow {
		out["option"] = a.Option
		out["scope"] = a.Scope
	}
	if a.Reason != "" {
		out["reason"] = a.Reason
	}
	return json.Marshal(out)
}

// SetAsker sets who is asked when a call needs approval (nil: nobody, so
// Check returns ask and the caller asks its user). The asker runs on its own
// goroutine; ctx is done when the Check's context is, or when the guard
// stopped waiting (approval timeout): the ask is then denied, whatever the
// asker returns later. An asker that panics denies the call. SetAsker waits
// for running checks, so the asker must not call SetAsker or Close.
func (g *Guard) SetAsker(asker func(ctx context.Context, req AskRequest) AskAnswer) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.c == nil {
		return ErrClosed
	}
	if asker == nil {
		g.state.asker.Store(nil)
		setCAsker(g.c, 0)
		return nil
	}
	f := askerFunc(asker)
	g.state.asker.Store(&f)
	setCAsker(g.c, uintptr(g.handle))
	return nil
}

// goToolguardAsk is the C asker (tgo_asker in cgo.go): it finds the guard's
// Go asker and the Check's context, and answers on another goroutine. It
// never panics into C, and answers exactly once.
//
//export goToolguardAsk
func goToolguardAsk(guard C.uintptr_t, check C.uintptr_t, ask *C.tg_ask, request *C.char) {
	text := C.GoString(request)
	answered := false
	answer := func(a AskAnswer) {
		answered = true
		answerWith(ask, a)
	}
	defer func() {
		if r := recover(); r != nil && !answered {
			answer(AskAnswer{Outcome: AskDeny, Reason: fmt.Sprintf("the asker failed: %v", r)})
		}
	}()
	var asker askerFunc
	if state, ok := cgo.Handle(guard).Value().(*guardState); ok {
		if f := state.asker.Load(); f != nil {
			asker = *f
		}
	}
	if asker == nil {
		answer(AskAnswer{Outcome: AskDeny, Reason: "no asker is set"})
		return
	}
	var req AskRequest
	if err := json.Unmarshal([]byte(text), &req); err != nil {
		answer(AskAnswer{Outcome: AskDeny, Reason: "the ask could not be read: " + err.Error()})
		return
	}
	req.Raw = json.RawMessage(text)
	ctx, cs := context.Background(), (*checkState)(nil)
	if check != 0 {
		if s, ok := cgo.Handle(check).Value().(*checkState); ok {
			ctx, cs = s.ctx, s
		}
	}
	answered = true // from here on runAsk answers
	go runAsk(ctx, cs, asker, req, ask)
}

// runAsk asks `asker` and answers the ask with its answer, or with deny if
// ctx is done first or the asker panics.
func runAsk(ctx context.Context, check *checkState, asker askerFunc, req AskRequest, ask *C.tg_ask) {
	result := make(chan AskAnswer, 1) // buffered: a late asker never blocks
	go func() {
		defer func() {
			if r := recover(); r != nil {
				result <- AskAnswer{Outcome: AskDeny, Reason: fmt.Sprintf("the asker panicked: %v", r)}
			}
		}()
		result <- asker(ctx, req)
	}()
	var a AskAnswer
	select {
	case a = <-result:
	case <-ctx.Done():
		if check != nil {
			check.cancelled.Store(true)
		}
		a = AskAnswer{Outcome: AskDeny, Reason: "nobody answered: the check was cancelled (" + ctx.Err().Error() + ")"}
	}
	answerWith(ask, a)
}

// answerWith answers and frees the ask. An answer the C API refuses (an
// unknown outcome, an option or scope not offered) denies the call.
func answerWith(ask *C.tg_ask, a AskAnswer) {
	data, err := json.Marshal(a)
	if err != nil {
		data = []byte(`{"outcome":"deny","reason":"the answer could not be written"}`)
	}
	_ = answerAsk(ask, data)
}
