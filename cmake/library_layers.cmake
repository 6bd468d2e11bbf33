# The library, one target per layer (README "Layout", docs/architecture.md).
#
# Each layer is an object library with its own sources, listed here. A layer
# sees the headers of its own folder and of the layers it names after USES
# (and what those name, down to the bottom), nothing else: its include path
# holds build/layers/LAYER/FOLDER, a link to src/FOLDER, instead of all of
# src/. An #include of a folder of a layer not below it does not compile.
# Public headers (include/toolguard/) are seen from everywhere.
#
# The umbrella `toolguard` (the library users link, and what
# libtoolguard_c.so holds) is made of every layer's objects, so nothing
# outside changes. scripts/check-layers.sh checks the same order by reading
# the includes, without a build; a layer's USES are the folders its files
# include.

# What every layer is compiled with: the public headers, the dependencies'
# headers, the warnings.
add_library(toolguard_layer_options INTERFACE)
target_include_directories(toolguard_layer_options INTERFACE ${CMAKE_SOURCE_DIR}/include)
target_include_directories(toolguard_layer_options SYSTEM INTERFACE ${RE2_INCLUDE_DIRS}
  ${TOMLPLUSPLUS_INCLUDE_DIR})
target_link_libraries(toolguard_layer_options INTERFACE nlohmann_json::nlohmann_json toolguard::yaml-cpp
  toolguard::fyaml toolguard::re2 toolguard::tree-sitter toolguard::nettle toolguard::seccomp
  Threads::Threads
  toolguard_warnings)
target_compile_features(toolguard_layer_options INTERFACE cxx_std_20)

set(TOOLGUARD_LAYERS "")
# Every layer's headers at once, for the programs above the library (the
# command, the service, the C API).
add_library(toolguard_library_headers INTERFACE)

# toolguard_folder_root(VAR FOLDER): VAR is an include directory in which
# FOLDER/ (a link to src/FOLDER) is the only folder.
function(toolguard_folder_root var folder)
  set(root ${CMAKE_BINARY_DIR}/layers/${folder})
  file(MAKE_DIRECTORY ${root})
  if(NOT EXISTS ${root}/${folder})
    file(CREATE_LINK ${CMAKE_SOURCE_DIR}/src/${folder} ${root}/${folder} SYMBOLIC)
  endif()
  set(${var} ${root} PARENT_SCOPE)
endfunction()

# toolguard_check_listed(FOLDER SOURCE...): fails when a .cpp of src/FOLDER
# is neither among SOURCE nor in TOOLGUARD_SOURCES_ELSEWHERE (compiled in
# another target on purpose), so a new file cannot be left out unnoticed.
function(toolguard_check_listed folder)
  file(GLOB present RELATIVE ${CMAKE_SOURCE_DIR} CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/${folder}/*.cpp)
  foreach(source ${present})
    list(FIND ARGN ${source} listed)
    list(FIND TOOLGUARD_SOURCES_ELSEWHERE ${source} elsewhere)
    if(listed EQUAL -1 AND elsewhere EQUAL -1)
      message(FATAL_ERROR "${source} is compiled by no target: list it (cmake/library_layers.cmake "
                          "for the library's layers, CMakeLists.txt for the programs)")
    endif()
  endforeach()
endfunction()

# toolguard_layer(NAME [USES LAYER...] SOURCES FILE...): toolguard_layer_NAME, the layer of
# src/NAME, which may include the headers of the layers named after USES.
function(toolguard_layer name)
  cmake_parse_arguments(arg "" "" "USES;SOURCES" ${ARGN})
  toolguard_folder_root(root ${name})
  toolguard_check_listed(${name} ${arg_SOURCES})
  list(TRANSFORM arg_USES PREPEND toolguard_layer_)
  add_library(toolguard_layer_${name} OBJECT ${arg_SOURCES})
  target_include_directories(toolguard_layer_${name} PUBLIC ${root})
  target_link_libraries(toolguard_layer_${name} PUBLIC ${arg_USES} PRIVATE toolguard_layer_options)
  # Position-independent, so that libtoolguard_c.so (the C API) can hold
  # the library; -fno-semantic-interposition keeps calls inside it direct,
  # as in an executable.
  set_target_properties(toolguard_layer_${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_compile_options(toolguard_layer_${name} PRIVATE -fno-semantic-interposition)
  # One precompiled header for every layer (the first layer's).
  if(TOOLGUARD_LAYERS)
    list(GET TOOLGUARD_LAYERS 0 first)
    toolguard_speed_up(toolguard_layer_${name} BATCH ${TOOLGUARD_LIBRARY_BATCH} PCH_FROM ${first})
  else()
    toolguard_speed_up(toolguard_layer_${name} BATCH ${TOOLGUARD_LIBRARY_BATCH})
  endif()
  target_include_directories(toolguard_library_headers INTERFACE ${root})
  list(APPEND TOOLGUARD_LAYERS toolguard_layer_${name})
  set(TOOLGUARD_LAYERS ${TOOLGUARD_LAYERS} PARENT_SCOPE)
endfunction()

# Compiled into other targets: the document tree (toolguard_doc_tree, shared
# with the build-time tool) and the HTTP helper program.
set(TOOLGUARD_SOURCES_ELSEWHERE ${TOOLGUARD_DOC_TREE_SOURCES} src/http/http_helper_main.cpp
  src/http/tls_tunnel_main.cpp
  src/cli/main.cpp src/cli/startup_arena.cpp src/cli/static_lookups.cpp src/serve/serve_main.cpp
  src/serve/worker_pool.cpp)

# Bottom to top: a layer names only layers above it in this file.
# json: JSON helpers: strict reading, errors, compact output
toolguard_layer(json SOURCES
  src/json/compact_dump.cpp
  src/json/json_error.cpp
  src/json/json_tokens.cpp
  src/json/strict_json.cpp
)
# regex: RE2 helpers: JavaScript patterns translated
toolguard_layer(regex SOURCES
  src/regex/js_regex.cpp
)
# http: the HTTP client's in-process side (the helper program is apart)
toolguard_layer(http SOURCES
  src/http/host_addresses.cpp
  src/http/http_helper.cpp
  src/http/http_stream.cpp
  src/http/response_head.cpp
  src/http/plain_http.cpp
  src/http/service_post.cpp
  src/http/sse_parser.cpp
  src/http/tls_tunnel.cpp
)
# core: calls, decisions, tool catalog, rule index, matchers, globs
toolguard_layer(core SOURCES
  src/core/builtin_catalog.cpp
  src/core/content_matcher.cpp
  src/core/first_match_rule.cpp
  src/core/glob.cpp
  src/core/json_measure.cpp
  src/core/lazy_regex.cpp
  src/core/mcp_tool_arguments.cpp
  src/core/mcp_tool_mapping.cpp
  src/core/model_text.cpp
  src/core/random_bytes.cpp
  src/core/result_scan.cpp
  src/core/rule_index.cpp
  src/core/secret_scan.cpp
  src/core/session_state.cpp
  src/core/sha256_hex.cpp
  src/core/shell_quote.cpp
  src/core/tool_call_json.cpp
  src/core/tool_catalog.cpp
  src/core/tool_metadata_json.cpp
  src/core/tool_name.cpp
  src/core/unicode_text.cpp
  src/core/value_matcher.cpp
  src/core/web_url.cpp
  src/core/wildcard.cpp
)
# paths: path resolution, containment, path globs, probes and the path matcher
toolguard_layer(paths USES core SOURCES
  src/paths/case_sensitivity.cpp
  src/paths/file_glance.cpp
  src/paths/normalize.cpp
  src/paths/path_glob_set.cpp
  src/paths/path_matcher.cpp
  src/paths/path_probes.cpp
  src/paths/resolve.cpp
  src/paths/user_database.cpp
  src/paths/validate.cpp
)
# schema: JSON Schema validation of arguments
toolguard_layer(schema USES regex SOURCES
  src/schema/compiler.cpp
  src/schema/context.cpp
  src/schema/dialect.cpp
  src/schema/documents.cpp
  src/schema/evaluated.cpp
  src/schema/json_pointer.cpp
  src/schema/json_schema.cpp
  src/schema/json_values.cpp
  src/schema/keywords_array.cpp
  src/schema/keywords_combinators.cpp
  src/schema/keywords_dependencies.cpp
  src/schema/keywords_general.cpp
  src/schema/keywords_number.cpp
  src/schema/keywords_object.cpp
  src/schema/keywords_references.cpp
  src/schema/keywords_size.cpp
  src/schema/keywords_string.cpp
  src/schema/keywords_unevaluated.cpp
  src/schema/meta_schemas.cpp
  src/schema/meta_schemas_2019_09.cpp
  src/schema/meta_schemas_2020_12.cpp
  src/schema/regex.cpp
  src/schema/uri.cpp
  src/schema/value_text.cpp
)
# chat: the chat-completions client
toolguard_layer(chat USES core http SOURCES
  src/chat/chat_client.cpp
  src/chat/chat_messages.cpp
  src/chat/endpoint_url.cpp
  src/chat/response_reader.cpp
  src/chat/stream_assembler.cpp
)
# audit: the decision log and its chain
toolguard_layer(audit USES core json SOURCES
  src/audit/audit_chain.cpp
  src/audit/audit_file_chain.cpp
  src/audit/audit_log.cpp
  src/audit/audit_malformed.cpp
  src/audit/audit_read.cpp
  src/audit/audit_record.cpp
  src/audit/audit_redact.cpp
  src/audit/audit_time.cpp
)
# sandbox: Landlock, seccomp and namespaces around a command (toolguard sandbox)
toolguard_layer(sandbox USES core SOURCES
  src/sandbox/landlock.cpp
  src/sandbox/network_proxy.cpp
  src/sandbox/proxy_hosts.cpp
  src/sandbox/sandbox_child.cpp
  src/sandbox/sandbox_layout.cpp
  src/sandbox/sandbox_run.cpp
  src/sandbox/seccomp_filter.cpp
)
# shell_parse: bash text to simple commands: tree, words, expansion
toolguard_layer(shell_parse USES core paths SOURCES
  src/shell_parse/assigned_names.cpp
  src/shell_parse/backslash_escapes.cpp
  src/shell_parse/bash_tree.cpp
  src/shell_parse/known_output.cpp
  src/shell_parse/program_builder.cpp
  src/shell_parse/program_builder_commands.cpp
  src/shell_parse/program_builder_effects.cpp
  src/shell_parse/program_builder_redirects.cpp
  src/shell_parse/program_builder_statements.cpp
  src/shell_parse/safe_shell_arg.cpp
  src/shell_parse/shell_env.cpp
  src/shell_parse/unterminated_quote.cpp
  src/shell_parse/word_fields.cpp
  src/shell_parse/word_value.cpp
)
# shell_unwrap: what wrappers run; parseShellProgram
toolguard_layer(shell_unwrap USES shell_parse SOURCES
  src/shell_unwrap/hidden_code.cpp
  src/shell_unwrap/interpreter_shell_calls.cpp
  src/shell_unwrap/shell_program.cpp
  src/shell_unwrap/shell_program_cache.cpp
  src/shell_unwrap/unwrap.cpp
  src/shell_unwrap/xargs_input.cpp
)
# commands: knowledge of programs: paths, accesses, option tables
toolguard_layer(commands USES paths shell_parse shell_unwrap SOURCES
  src/commands/confined_code.cpp
  src/commands/build_files.cpp
  src/commands/build_tool_checks.cpp
  src/commands/command_accesses.cpp
  src/commands/command_args.cpp
  src/commands/command_paths.cpp
  src/commands/command_paths_by_program.cpp
  src/commands/git_start.cpp
  src/commands/inherited_environment.cpp
  src/commands/inherited_values.cpp
  src/commands/makefile_scripts.cpp
  src/commands/option_entries.cpp
  src/commands/option_table.cpp
  src/commands/program_specs.cpp
  src/commands/local_commands.cpp
  src/commands/safe_commands.cpp
  src/commands/shell_facts.cpp
  src/commands/table_build_systems.cpp
  src/commands/table_compiled_languages.cpp
  src/commands/table_config_linters.cpp
  src/commands/table_file_readers.cpp
  src/commands/table_file_tools.cpp
  src/commands/table_git.cpp
  src/commands/table_javascript_tools.cpp
  src/commands/table_jvm_tools.cpp
  src/commands/table_linters.cpp
  src/commands/table_python_tools.cpp
  src/commands/table_runtime_versions.cpp
  src/commands/table_text_and_system_tools.cpp
  src/commands/table_wrappers.cpp
  src/commands/variable_lists.cpp
)
# rules: built-in shell and secret rules, the shell matcher
toolguard_layer(rules USES commands core paths shell_parse shell_unwrap SOURCES
  src/rules/builtin_secret_rules.cpp
  src/rules/builtin_shell_rules.cpp
  src/rules/destructive_command_checks.cpp
  src/rules/risky_command_checks.cpp
  src/rules/self_approval.cpp
  src/rules/shell_matcher.cpp
  src/rules/write_and_environment_checks.cpp
)
# engine: Engine::decide: the compiled policy, rule judging
toolguard_layer(engine USES commands core json paths rules SOURCES
  src/engine/allow_list.cpp
  src/engine/argument_stage.cpp
  src/engine/build_file_judgement.cpp
  src/engine/call_view.cpp
  src/engine/engine.cpp
  src/engine/match_rule.cpp
  src/engine/path_judgement.cpp
  src/engine/rule_judging.cpp
  src/engine/session_judgement.cpp
  src/engine/written_content.cpp
)
# approval: approval flow, handlers, the approval store
toolguard_layer(approval USES commands core http json shell_unwrap SOURCES
  src/approval/approval_handlers.cpp
  src/approval/approval_matching.cpp
  src/approval/approval_settling.cpp
  src/approval/approval_store.cpp
  src/approval/approval_types.cpp
  src/approval/pattern_commands.cpp
  src/approval/remote_approval_handler.cpp
  src/approval/session_approvals.cpp
  src/approval/store_cache.cpp
  src/approval/store_file_io.cpp
  src/approval/store_format.cpp
  src/approval/store_layout.cpp
  src/approval/store_listing.cpp
  src/approval/terminal_handler.cpp
  src/approval/terminal_io.cpp
  src/approval/terminal_prompt.cpp
  src/approval/terminal_render.cpp
  src/approval/terminal_safe.cpp
)
# session: what an agent's session has done, kept beside the approvals
toolguard_layer(session USES approval audit core json SOURCES
  src/session/memory_sessions.cpp
  src/session/session_json.cpp
  src/session/session_store.cpp
)
# policy: policy files: parsing, layering, linting, examples, profiles
toolguard_layer(policy USES commands core sandbox SOURCES
  src/policy/bounded_file.cpp
  src/policy/did_you_mean.cpp
  src/policy/guard_plugins.cpp
  src/policy/layer_merge.cpp
  src/policy/policy_builder.cpp
  src/policy/policy_lint.cpp
  src/policy/policy_matcher_parser.cpp
  src/policy/policy_parser.cpp
  src/policy/policy_rule_parser.cpp
  src/policy/policy_sandbox.cpp
  src/policy/policy_session_merge.cpp
  src/policy/policy_session_parser.cpp
  src/policy/policy_settings_parser.cpp
  src/policy/policy_tests.cpp
  src/policy/policy_tree_cache.cpp
  src/policy/profiles.cpp
  src/policy/rule_examples.cpp
  src/policy/yaml_json.cpp
  ${TOOLGUARD_PROFILES_CPP}
)
# foreign_policy: other agents' policies imported
toolguard_layer(foreign_policy USES core json policy regex SOURCES
  src/foreign_policy/claude_bash_rules.cpp
  src/foreign_policy/claude_domain_rules.cpp
  src/foreign_policy/claude_json_locations.cpp
  src/foreign_policy/claude_param_rules.cpp
  src/foreign_policy/claude_path_rules.cpp
  src/foreign_policy/claude_rule_mapping.cpp
  src/foreign_policy/claude_rule_text.cpp
  src/foreign_policy/claude_settings.cpp
  src/foreign_policy/claude_settings_location.cpp
  src/foreign_policy/codex_calls.cpp
  src/foreign_policy/codex_notes.cpp
  src/foreign_policy/codex_pattern.cpp
  src/foreign_policy/codex_rules.cpp
  src/foreign_policy/foreign_policy.cpp
  src/foreign_policy/gemini_args_cases.cpp
  src/foreign_policy/gemini_mapping.cpp
  src/foreign_policy/gemini_policy.cpp
  src/foreign_policy/gemini_regex.cpp
  src/foreign_policy/gemini_shell_cases.cpp
  src/foreign_policy/gemini_targets.cpp
  src/foreign_policy/gemini_toml.cpp
  src/foreign_policy/policy_translators.cpp
  src/foreign_policy/policy_yaml_writer.cpp
  src/foreign_policy/shell_words.cpp
  src/foreign_policy/starlark_lexer.cpp
  src/foreign_policy/starlark_reader.cpp
)
# limits: rate limits and their store
toolguard_layer(limits USES approval core SOURCES
  src/limits/rate_limit_file_store.cpp
  src/limits/rate_limiter.cpp
)
# llm: the LLM validator and guard skills
toolguard_layer(llm USES approval chat core policy SOURCES
  src/llm/deadline.cpp
  src/llm/guard_skill_directories.cpp
  src/llm/guard_skill_parser.cpp
  src/llm/guard_skills.cpp
  src/llm/language_detection.cpp
  src/llm/llm_prompt.cpp
  src/llm/llm_reply.cpp
  src/llm/llm_settings.cpp
  src/llm/llm_validator.cpp
  src/llm/verdict_cache.cpp
  ${TOOLGUARD_GUARD_SKILLS_CPP}
)
# agent: the agent loop
toolguard_layer(agent USES core SOURCES
  src/agent/agent.cpp
  src/agent/agent_events.cpp
  src/agent/agent_stream.cpp
)
# registry: the tool registry
toolguard_layer(registry USES approval core SOURCES
  src/registry/logging_filter.cpp
  src/registry/rate_limit_filter.cpp
  src/registry/registry_pipeline.cpp
  src/registry/result_cache_filter.cpp
  src/registry/result_filters.cpp
  src/registry/tool_definitions.cpp
  src/registry/tool_outcome.cpp
  src/registry/tool_registry.cpp
  src/registry/tool_security_compat.cpp
)
# policy_loader: finding and reading the policy files of every layer and format
toolguard_layer(policy_loader USES foreign_policy policy SOURCES
  src/policy_loader/policy_files.cpp
)
# guard: the Guard: decision, validators, limits, approval, audit
toolguard_layer(guard USES approval session SOURCES
  src/guard/guard.cpp
  src/guard/llm_step.cpp
  src/guard/session_step.cpp
  src/guard/overrule.cpp
  src/guard/validator_step.cpp
)
# mcp: the MCP proxy
toolguard_layer(mcp USES audit guard http json registry SOURCES
  src/mcp/child_process.cpp
  src/mcp/child_upstream.cpp
  src/mcp/elicitation.cpp
  src/mcp/exchange_workers.cpp
  src/mcp/gateway.cpp
  src/mcp/gateway_member.cpp
  src/mcp/gateway_router.cpp
  src/mcp/http_exchange.cpp
  src/mcp/http_upstream.cpp
  src/mcp/http_upstream_answers.cpp
  src/mcp/jsonrpc.cpp
  src/mcp/message_id_splice.cpp
  src/mcp/mcp_pins.cpp
  src/mcp/message_pipe.cpp
  src/mcp/line_io.cpp
  src/mcp/proxy.cpp
  src/mcp/relay_io.cpp
  src/mcp/session.cpp
  src/mcp/session_client.cpp
  src/mcp/session_server.cpp
)

# The HTTP helper program is looked for beside the command, where it is
# installed, and in the build tree (src/http/http_helper.cpp).
target_compile_definitions(toolguard_layer_http PRIVATE
  TOOLGUARD_HTTP_HELPER_RELATIVE_DIR="../${CMAKE_INSTALL_LIBDIR}/toolguard"
  TOOLGUARD_HTTP_HELPER_INSTALL_DIR="${CMAKE_INSTALL_FULL_LIBDIR}/toolguard"
  TOOLGUARD_HTTP_HELPER_BUILD_DIR="${CMAKE_BINARY_DIR}")
