# Compiler settings shared by every schedkit target.

find_program(SCHEDKIT_CCACHE ccache)
if(SCHEDKIT_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_CXX_COMPILER_LAUNCHER "${SCHEDKIT_CCACHE}")
endif()

if(SCHEDKIT_SANITIZE)
  add_compile_options(-fsanitize=${SCHEDKIT_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${SCHEDKIT_SANITIZE})
  # A sanitizer report needs function names and line tables, not variables:
  # -g1 keeps those. Full debug info, copied into each of the forty test
  # binaries (each links the core), made the ASan build 14 GB and the TSan
  # build 7 GB, more than a CI disk holds beside the Go caches.
  add_compile_options(-g1)
  if(SCHEDKIT_SANITIZE MATCHES "thread")
    # Debian's protobuf and Abseil libraries are built without TSan; headers
    # that see __SANITIZE_THREAD__ change class layouts (protobuf's
    # MapFieldBase grows two fields) and no longer match those libraries.
    # Hide the macro from headers; our code asks SCHEDKIT_TSAN instead.
    add_compile_options(-U__SANITIZE_THREAD__)
    add_compile_definitions(SCHEDKIT_TSAN=1)
  endif()
endif()

# The fuzz build (clang): every object carries libFuzzer's coverage
# instrumentation; the targets link its driver (tests/fuzz).
if(SCHEDKIT_BUILD_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "SCHEDKIT_BUILD_FUZZ needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()

# Warnings are errors on our own code only; generated protobuf code gets none.
function(schedkit_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    # Only the fuzz build uses clang: its warnings are reported, and the GCC
    # build, which every other target runs, keeps them fatal.
    target_compile_options(${target} PRIVATE -Wall -Wextra -Werror=unused-result)
    return()
  endif()
  # GCC 12 reports bogus -Wrestrict on inlined std::string code at -O3 (GCC PR
  # 105329) and bogus -Wmaybe-uninitialized inside absl::InlinedVector.
  # A dropped [[nodiscard]] result (a Status, a plugin's Result) is an error
  # by name, so a toolchain that demotes the warning still stops it.
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror -Werror=unused-result -Wno-restrict
    -Wno-maybe-uninitialized)
endfunction()
