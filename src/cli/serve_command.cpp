// `toolguard serve ...`: handed whole to the toolguard-serve program (the
// HTTP server, libpq), found and checked as the HTTP helper is, so a hook
// process never loads them.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <vector>

#include "cli/commands.hpp"
#include "http/http_helper.hpp"

namespace toolguard::cli {

int runServeProgram(int argc, char** argv) {
  const Expected<int> fd = detail::openHelperProgram("toolguard-serve");
  if (!fd) {
    std::cerr << "toolguard: " << fd.error() << "\n";
    return kExitError;
  }
  std::vector<char*> args;
  char name[] = "toolguard-serve";
  args.push_back(name);
  for (int i = 0; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  fexecve(*fd, args.data(), environ);
  std::cerr << "toolguard: toolguard-serve could not be started: " << std::strerror(errno) << "\n";
  return kExitError;
}

}  // namespace toolguard::cli
