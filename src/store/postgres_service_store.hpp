#pragma once
// Internal: the PostgreSQL store of `toolguard serve` (libpq).

#include <climits>
#include <memory>
#include <string>

#include "service_store.hpp"

namespace toolguard::store {

/// Connects to `url`, applies the migrations the database lacks and returns
/// the store. Throws StoreError naming what failed.
std::unique_ptr<ServiceStore> openPostgresStore(const std::string& url);

/// Applies the migrations the database at `url` lacks; returns the versions
/// applied (none when it is up to date). `up_to`: no migration past this
/// version (a test's database as an older toolguard left it). Throws StoreError.
std::vector<int> migratePostgres(const std::string& url, int up_to = INT_MAX);

/// With the owner's URL (the role that ran the migrations): grants `role`,
/// the service's, what it needs and no more: on the audit only SELECT and
/// INSERT, so that it can never change or delete a record. Throws StoreError.
void grantServiceRole(const std::string& owner_url, const std::string& role);

}  // namespace toolguard::store
