# The Go binding's tests (bindings/go/README.md): `go test ./...` in
# bindings/go, linked against this build's libtoolguard_c.so. Go's build
# cache (under the build tree) makes reruns fast; -count=1 reruns the tests
# themselves, since the library can change without Go noticing.
find_program(TOOLGUARD_GO_EXECUTABLE NAMES go PATHS /usr/lib/go-1.19/bin /usr/local/go/bin)
if(TOOLGUARD_GO_EXECUTABLE)
  set(_tg_go_dir ${CMAKE_BINARY_DIR}/bindings/go)
  add_test(NAME bindings.go
    COMMAND ${TOOLGUARD_GO_EXECUTABLE} test -count=1 -timeout 240s ./...
    WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/go)
  set_tests_properties(bindings.go PROPERTIES
    LABELS bindings
    FIXTURES_REQUIRED bindings_corpus
    TIMEOUT 300
    ENVIRONMENT "${TOOLGUARD_BINDINGS_TEST_ENV};CGO_ENABLED=1;CGO_LDFLAGS=-L$<TARGET_FILE_DIR:toolguard_c> -Wl,-rpath,$<TARGET_FILE_DIR:toolguard_c>;GOCACHE=${_tg_go_dir}/cache;GOPATH=${_tg_go_dir}/gopath;GOPROXY=off;GOFLAGS=;GOTOOLCHAIN=local;GO111MODULE=on;TOOLGUARD_GO_REQUIRE_CORPUS=1")
else()
  message(FATAL_ERROR "the Go binding's tests need go (Debian's golang-go): run scripts/install-deps.sh")
endif()
