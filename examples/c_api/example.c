#include <stdio.h>
#include <toolguard/toolguard.h>

int main(void) {
  tg_error* error = NULL;
  tg_guard* guard = tg_guard_new("{\"user\": false, \"project\": false, \"audit\": false}", &error);
  if (guard == NULL) return fprintf(stderr, "%s\n", tg_error_message(error)), 1;
  const char* calls[] = {"{\"tool\": \"Bash\", \"args\": {\"command\": \"git status\"}}",
                         "{\"tool\": \"Bash\", \"args\": {\"command\": \"rm -rf ~\"}}"};
  for (int i = 0; i < 2; i++) {
    char* decision = tg_guard_check(guard, calls[i], &error);
    printf("%s\n", decision);
    tg_string_free(decision);
  }
  tg_guard_free(guard);
  return 0;
}
