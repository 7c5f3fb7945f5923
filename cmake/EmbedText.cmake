# cmake -P script: writes file IN as a C++ raw string constant into header OUT.
file(READ ${IN} content)
get_filename_component(name ${IN} NAME)
file(WRITE ${OUT} "// Generated from ${name}; do not edit.\n#pragma once\n"
  "namespace schedkit::sim {\ninline constexpr char kDemoCluster[] = R\"schedkit_embed(${content})schedkit_embed\";\n}\n")
