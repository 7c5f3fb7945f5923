# cmake -P script: install the build tree into WORK_DIR/prefix, configure and
# build the consumer project against it, then run the consumer.
include(${CMAKE_CURRENT_LIST_DIR}/installed_project.cmake)
build_against_install(${CONSUMER_SRC} ${WORK_DIR}/build)
run(${WORK_DIR}/build/consumer)
