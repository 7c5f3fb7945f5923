# Included by the install checks (cmake -P): installs the build tree BUILD_DIR
# into WORK_DIR/prefix and builds a project against it, as a user outside
# the tree would, with the sanitizer of the build tree (SANITIZE) when it has
# one.
#
#   include(${CMAKE_CURRENT_LIST_DIR}/installed_project.cmake)
#   build_against_install(${SRC} ${WORK_DIR}/build)
#   run(${WORK_DIR}/build/program)          # out and err are set afterwards
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)

# Runs a command; fails the check with its output unless it exits 0.
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "command failed (${rc}): ${ARGV}\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()

# Configures and builds `src` in `build` against the installed package.
function(build_against_install src build)
  set(extra)
  if(SANITIZE)
    set(cxx_flags "-fsanitize=${SANITIZE}")
    if(SANITIZE MATCHES "thread")
      # As in SchedkitOptions.cmake: keep library headers' layouts as built.
      string(APPEND cxx_flags " -U__SANITIZE_THREAD__")
    endif()
    set(extra "-DCMAKE_CXX_FLAGS=${cxx_flags}" "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=${SANITIZE}")
  endif()
  run(${CMAKE_COMMAND} -S ${src} -B ${build} -G Ninja -DCMAKE_BUILD_TYPE=${BUILD_TYPE}
      -DCMAKE_PREFIX_PATH=${prefix} ${extra})
  run(${CMAKE_COMMAND} --build ${build})
endfunction()

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
