#pragma once
// Internal: finds and loads libtoolguard-http.so (the HTTP client) the first
// time a request is sent. See http_plugin_abi.h for why it is a plugin.

#include <filesystem>
#include <string>
#include <vector>

#include "http/http_plugin_abi.h"

namespace toolguard::detail {

/// The plugin's post function, loaded once; nullptr with `error` saying what
/// was tried when no usable plugin is found (the request then fails as a
/// connection error, never as an allow).
///
/// Looked for, in order: beside the running executable; in
/// ../LIBDIR/toolguard/ from it; in the install's LIBDIR/toolguard/; in the
/// build tree that made this library. A file is used only when it is a
/// regular file (not a symbolic link) owned by root or by this user, writable
/// by no one else, in a directory no one else can write (or a sticky one).
toolguard_http_post_fn httpPostFunction(std::string& error);

/// The same search over the given files (for tests); each call loads anew.
toolguard_http_post_fn loadHttpPluginFrom(const std::vector<std::filesystem::path>& files,
                                          std::string& error);

}  // namespace toolguard::detail
