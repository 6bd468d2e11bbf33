/* Compiled as C (C11, -Wall -Wextra -Wpedantic -Werror): the C API's header
 * is plain C. The function below is called from capi_test.cpp. */
#include <string.h>

#include "toolguard/toolguard.h"

/* Checks one call from C and returns its verdict, or -1 on an error. */
int tg_test_verdict_from_c(const char* options_json, const char* call_json) {
  tg_error* error = NULL;
  tg_guard* guard = tg_guard_new(options_json, &error);
  if (guard == NULL) {
    tg_error_free(error);
    return -1;
  }
  tg_decision* decision = tg_guard_decide(guard, call_json, strlen(call_json), &error);
  int verdict = decision == NULL ? -1 : (int)tg_decision_verdict(decision);
  tg_decision_free(decision);
  tg_error_free(error);
  tg_guard_free(guard);
  return verdict;
}
