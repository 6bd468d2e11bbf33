package toolguard

// The C side of the binding: the C API (include/toolguard/toolguard.h) and a
// small trampoline that lets an ask find the Check that caused it.
//
// The library directory is not named here: give it through the environment,
//   CGO_LDFLAGS="-L$TOOLGUARD_LIB_DIR -Wl,-rpath,$TOOLGUARD_LIB_DIR"
// (README.md).

/*
#cgo CFLAGS: -I${SRCDIR}/../../include
#cgo LDFLAGS: -ltoolguard_c
#include <stdint.h>
#include <stdlib.h>
#include "toolguard/toolguard.h"

// Defined in asker.go (//export).
extern void goToolguardAsk(uintptr_t guard, uintptr_t check, tg_ask* ask, char* request);

// The Check running on this thread (a cgo.Handle, 0: none). The C API calls
// the asker on the thread that checks the call, so the asker learns which
// Check (and so which context.Context) it serves.
static __thread uintptr_t tgo_current_check;

static void tgo_asker(void* guard, tg_ask* ask, const char* request_json) {
  goToolguardAsk((uintptr_t)guard, tgo_current_check, ask, (char*)request_json);
}

// Sets (handle != 0) or clears the Go asker of `guard`; `handle` is the
// cgo.Handle of the guard's Go state.
static void tgo_set_asker(tg_guard* guard, uintptr_t handle) {
  tg_guard_set_asker(guard, handle != 0 ? tgo_asker : NULL, (void*)handle);
}

// A decision's fields, read in one cgo call; valid while the decision lives.
typedef struct tgo_fields {
  tg_verdict verdict;
  const char* reason;
  const char* model_reason;
  const char* rule;
  const char* json;  // NULL unless asked for
} tgo_fields;

// tg_guard_decide with `check` (a cgo.Handle, or 0) as this thread's Check;
// fills `out` from the decision (with its JSON when `with_json`).
static tg_decision* tgo_decide(tg_guard* guard, const char* call, size_t length, uintptr_t check,
                               int with_json, tgo_fields* out, tg_error** error) {
  uintptr_t outer = tgo_current_check;
  tgo_current_check = check;
  tg_decision* decision = tg_guard_decide(guard, call, length, error);
  tgo_current_check = outer;
  if (decision != NULL) {
    out->verdict = tg_decision_verdict(decision);
    out->reason = tg_decision_reason(decision);
    out->model_reason = tg_decision_model_reason(decision);
    out->rule = tg_decision_rule(decision);
    out->json = with_json ? tg_decision_json(decision) : NULL;
  }
  return decision;
}

// The benchmark's floor: n decisions made in C, with no Go in between.
static void tgo_decide_loop(tg_guard* guard, const char* call, size_t length, int n) {
  for (int i = 0; i < n; ++i) tg_decision_free(tg_guard_decide(guard, call, length, NULL));
}
*/
import "C"

import (
	"encoding/json"
	"unsafe"
)

// takeError turns a tg_error into an *Error and frees it (NULL: `fallback`).
func takeError(e *C.tg_error, fallback string) error {
	if e == nil {
		return &Error{Message: fallback}
	}
	defer C.tg_error_free(e)
	return &Error{Message: C.GoString(C.tg_error_message(e))}
}

// emptyText is a valid pointer to pass with length 0.
var emptyText = C.CString("")

// decide judges call JSON on the C guard; check is the Check's cgo.Handle
// (0 when no asker is set); withRaw renders Decision.Raw.
func decide(g *cGuard, callJSON []byte, check uintptr, withRaw bool) (Decision, error) {
	// The bytes are read during the call only (the C API copies them); an
	// empty call still needs a valid pointer.
	text := emptyText
	if len(callJSON) > 0 {
		text = (*C.char)(unsafe.Pointer(&callJSON[0]))
	}
	var cerr *C.tg_error
	var f C.tgo_fields
	with := C.int(0)
	if withRaw {
		with = 1
	}
	d := C.tgo_decide(g.p, text, C.size_t(len(callJSON)), C.uintptr_t(check), with, &f, &cerr)
	if d == nil {
		err := takeError(cerr, "tg_guard_decide failed")
		return denyDecision(err.Error()), err
	}
	defer C.tg_decision_free(d)
	out := Decision{
		Verdict:     verdictOf(f.verdict),
		Reason:      C.GoString(f.reason),
		ModelReason: C.GoString(f.model_reason),
		Rule:        C.GoString(f.rule),
	}
	if f.json != nil {
		out.Raw = json.RawMessage(C.GoString(f.json))
	}
	return out, nil
}

// verdictOf names a tg_verdict; anything unknown is a deny.
func verdictOf(v C.tg_verdict) Verdict {
	switch v {
	case C.TG_VERDICT_ALLOW:
		return VerdictAllow
	case C.TG_VERDICT_ASK:
		return VerdictAsk
	case C.TG_VERDICT_ABORT:
		return VerdictAbort
	default:
		return VerdictDeny
	}
}

// cGuard holds the C guard.
type cGuard struct{ p *C.tg_guard }

// newCGuard creates the C guard from options JSON.
func newCGuard(options []byte) (*cGuard, error) {
	text := C.CString(string(options))
	defer C.free(unsafe.Pointer(text))
	var cerr *C.tg_error
	g := C.tg_guard_new(text, &cerr)
	if g == nil {
		return nil, takeError(cerr, "tg_guard_new failed")
	}
	return &cGuard{g}, nil
}

// freeCGuard frees the C guard.
func freeCGuard(g *cGuard) { C.tg_guard_free(g.p) }

// setCAsker points the C guard's asker at goToolguardAsk with the guard
// state's handle, or clears it (handle 0).
func setCAsker(g *cGuard, handle uintptr) { C.tgo_set_asker(g.p, C.uintptr_t(handle)) }

// answerAsk answers and frees a C ask; the C API's error when the answer was
// refused (the call is then denied).
func answerAsk(ask *C.tg_ask, answer []byte) error {
	text := C.CString(string(answer))
	defer C.free(unsafe.Pointer(text))
	var cerr *C.tg_error
	if C.tg_ask_answer(ask, text, &cerr) != 0 {
		return takeError(cerr, "tg_ask_answer failed")
	}
	return nil
}

// decideInC makes n decisions of call without leaving C: BenchmarkCheck's
// floor, so the binding's own cost is measured in the same process.
func decideInC(g *cGuard, call []byte, n int) {
	C.tgo_decide_loop(g.p, (*C.char)(unsafe.Pointer(&call[0])), C.size_t(len(call)), C.int(n))
}

// Version is the version of the loaded libtoolguard_c, "MAJOR.MINOR.PATCH".
func Version() string { return C.GoString(C.tg_version()) }

// runSandboxed is tg_guard_run_sandboxed: the command's exit status, or an
// error when nothing was run.
func runSandboxed(g *cGuard, request []byte) (int, error) {
	text := C.CString(string(request))
	defer C.free(unsafe.Pointer(text))
	var cerr *C.tg_error
	status := C.tg_guard_run_sandboxed(g.p, text, &cerr)
	if status < 0 {
		return -1, takeError(cerr, "tg_guard_run_sandboxed failed")
	}
	return int(status), nil
}
