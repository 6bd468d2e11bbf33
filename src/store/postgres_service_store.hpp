#pragma once
// Internal: the PostgreSQL store of `toolguard serve` (libpq).

#include <memory>
#include <string>

#include "service_store.hpp"

namespace toolguard::store {

/// Connects to `url`, applies the migrations the database lacks and returns
/// the store. Throws StoreError naming what failed.
std::unique_ptr<ServiceStore> openPostgresStore(const std::string& url);

/// Applies the migrations the database at `url` lacks; returns the versions
/// applied (none when it is up to date). Throws StoreError.
std::vector<int> migratePostgres(const std::string& url);

}  // namespace toolguard::store
