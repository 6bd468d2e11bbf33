# The Node.js binding's tests (included by bindings/CMakeLists.txt): build the
# addon with cmake-js into the build tree (a fixture), then each test file with
# node's built-in runner. node_modules comes from scripts/install-deps.sh (npm ci).
find_program(TOOLGUARD_NODE_EXECUTABLE node)
if(TOOLGUARD_NODE_EXECUTABLE)
  set(TOOLGUARD_NODE_SOURCE ${CMAKE_CURRENT_LIST_DIR})
  set(TOOLGUARD_NODE_OUT ${CMAKE_BINARY_DIR}/bindings/node-addon)
  add_test(NAME bindings.node.build
    COMMAND ${TOOLGUARD_NODE_EXECUTABLE} node_modules/cmake-js/bin/cmake-js compile
            --out ${TOOLGUARD_NODE_OUT} --log-level warn
    WORKING_DIRECTORY ${TOOLGUARD_NODE_SOURCE})
  set_tests_properties(bindings.node.build PROPERTIES
    LABELS bindings FIXTURES_SETUP bindings_node ENVIRONMENT "${TOOLGUARD_BINDINGS_TEST_ENV}")
  foreach(name corpus guard multi-llm-ts example)
    add_test(NAME bindings.node.${name}
      COMMAND ${TOOLGUARD_NODE_EXECUTABLE} --test test/${name}.test.mjs
      WORKING_DIRECTORY ${TOOLGUARD_NODE_SOURCE})
    set_tests_properties(bindings.node.${name} PROPERTIES
      LABELS bindings FIXTURES_REQUIRED "bindings_corpus;bindings_node" TIMEOUT 120
      ENVIRONMENT "${TOOLGUARD_BINDINGS_TEST_ENV};TOOLGUARD_NODE_ADDON=${TOOLGUARD_NODE_OUT}/Release/toolguard.node")
  endforeach()
endif()
