# The Python binding's tests (included by bindings/CMakeLists.txt), with
# Debian's pytest under /usr/bin/python3 and the package from the source tree:
#  - bindings.python.build (a fixture): builds the native helper
#    (toolguard._native, pybind11; setup.py build_ext) into the build tree;
#  - bindings.python: the tests with that helper (the fast path);
#  - bindings.python.ctypes: the same tests through ctypes alone
#    (TOOLGUARD_PYTHON_NATIVE=0), what a user without a compiler gets.
# No cache, bytecode or build output is written into the source tree.
set(TOOLGUARD_PYTHON_SOURCE ${CMAKE_CURRENT_LIST_DIR})
set(TOOLGUARD_PYTHON_OUT ${CMAKE_BINARY_DIR}/bindings/python)
set(TOOLGUARD_PYTHON_ENV
  "${TOOLGUARD_BINDINGS_TEST_ENV};PYTHONPATH=${TOOLGUARD_PYTHON_SOURCE};PYTHONDONTWRITEBYTECODE=1")

add_test(NAME bindings.python.build
  COMMAND /usr/bin/python3 setup.py -q build_ext --build-lib ${TOOLGUARD_PYTHON_OUT}/lib
          --build-temp ${TOOLGUARD_PYTHON_OUT}/tmp
  WORKING_DIRECTORY ${TOOLGUARD_PYTHON_SOURCE})
set_tests_properties(bindings.python.build PROPERTIES LABELS bindings FIXTURES_SETUP bindings_python
  TIMEOUT 300 ENVIRONMENT "TOOLGUARD_NATIVE_REQUIRED=1;PYTHONDONTWRITEBYTECODE=1")

add_test(NAME bindings.python
  COMMAND /usr/bin/python3 -m pytest -q -p no:cacheprovider ${TOOLGUARD_PYTHON_SOURCE}/tests)
set_tests_properties(bindings.python PROPERTIES LABELS bindings
  FIXTURES_REQUIRED "bindings_corpus;bindings_python" TIMEOUT 120
  ENVIRONMENT "${TOOLGUARD_PYTHON_ENV};TOOLGUARD_PYTHON_NATIVE=${TOOLGUARD_PYTHON_OUT}/lib")

add_test(NAME bindings.python.ctypes
  COMMAND /usr/bin/python3 -m pytest -q -p no:cacheprovider ${TOOLGUARD_PYTHON_SOURCE}/tests)
set_tests_properties(bindings.python.ctypes PROPERTIES LABELS bindings
  FIXTURES_REQUIRED bindings_corpus TIMEOUT 120
  ENVIRONMENT "${TOOLGUARD_PYTHON_ENV};TOOLGUARD_PYTHON_NATIVE=0")

# The README's snippet after `scripts/install.sh PREFIX` into a temporary
# prefix (it builds the release tree's product, a no-op once built, and
# installs it), with only the environment the README names. Alone: it
# reconfigures the release tree.
add_test(NAME bindings.python.install
  COMMAND /usr/bin/python3 -m pytest -q -p no:cacheprovider
          ${TOOLGUARD_PYTHON_SOURCE}/tests/test_library_lookup.py)
set_tests_properties(bindings.python.install PROPERTIES LABELS "bindings;install" RUN_SERIAL ON
  TIMEOUT 1800 ENVIRONMENT "${TOOLGUARD_PYTHON_ENV};TOOLGUARD_PYTHON_NATIVE=0;TOOLGUARD_TEST_INSTALL_SH=1")
