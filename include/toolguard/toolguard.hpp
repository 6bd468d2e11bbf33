#pragma once
// Everything a program that embeds toolguard needs, in one include.

#include "toolguard/call_view.hpp"
#include "toolguard/decision.hpp"
#include "toolguard/engine.hpp"
#include "toolguard/paths.hpp"
#include "toolguard/policy.hpp"
#include "toolguard/policy_builder.hpp"
#include "toolguard/policy_error.hpp"
#include "toolguard/policy_loader.hpp"
#include "toolguard/policy_tests.hpp"
#include "toolguard/rule.hpp"
#include "toolguard/rule_spec.hpp"
#include "toolguard/tool_call.hpp"
#include "toolguard/tool_catalog.hpp"
#include "toolguard/tool_info.hpp"
#include "toolguard/verdict.hpp"
