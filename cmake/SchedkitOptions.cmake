# Compiler settings shared by every schedkit target.

find_program(SCHEDKIT_CCACHE ccache)
if(SCHEDKIT_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_CXX_COMPILER_LAUNCHER "${SCHEDKIT_CCACHE}")
endif()

if(SCHEDKIT_SANITIZE)
  add_compile_options(-fsanitize=${SCHEDKIT_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${SCHEDKIT_SANITIZE})
endif()

# Warnings are errors on our own code only; generated protobuf code gets none.
function(schedkit_warnings target)
  # GCC 12 reports bogus -Wrestrict on inlined std::string code at -O3 (GCC PR
  # 105329) and bogus -Wmaybe-uninitialized inside absl::InlinedVector.
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror -Wno-restrict -Wno-maybe-uninitialized)
endfunction()
