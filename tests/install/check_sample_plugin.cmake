# cmake -P script: the plugin authors' kit end to end, as a new user would
# use it: install schedkit into WORK_DIR/prefix, build examples/sample-plugin
# (SAMPLE_SRC) against it, run its tests, run sample-sim on the bundled demo
# cluster with the plugin enabled and check its Filter's verdicts in
# --explain, and run its benchmark for one iteration.
include(${CMAKE_CURRENT_LIST_DIR}/installed_project.cmake)
set(build ${WORK_DIR}/build)
build_against_install(${SAMPLE_SRC} ${build})

# Its table tests and the guide's fragments.
run(${CMAKE_COMMAND} -E chdir ${build} ctest --output-on-failure)

# sample-sim on the demo cluster: the plugin rejects the nodes of another
# disktype, and --explain shows it doing so.
run(${build}/sample-sim --config ${SAMPLE_SRC}/sample-sim.yaml --output json --explain)
string(FIND "${out}" "\"plugin\": \"sample-plugin\"" at)
if(at EQUAL -1)
  message(FATAL_ERROR "sample-sim --explain shows no verdict of sample-plugin:\n${out}")
endif()
string(FIND "${out}" "\"node(s) had another color\"" at)
if(at EQUAL -1)
  message(FATAL_ERROR "sample-sim --explain shows no rejection by sample-plugin:\n${out}")
endif()

# Its PreBind's log line, at -v=2 (schedkit/base/log.h).
run(${build}/sample-sim --config ${SAMPLE_SRC}/sample-sim.yaml --output json -v=2)
string(REGEX MATCH "I[0-9]+ [0-9:.]+ +[0-9]+ sample-plugin\] [^ ]+ on node-[0-9]+, thanks to thockin" line "${err}")
if(NOT line)
  message(FATAL_ERROR "sample-sim -v=2 logged no PreBind line of sample-plugin:\n${err}")
endif()

# Its bad args: one line naming the file, the field, the plugin and the
# profile, exit 2.
file(WRITE ${WORK_DIR}/bad-args.yaml "apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- plugins:
    multiPoint:
      enabled:
      - name: sample-plugin
  pluginConfig:
  - name: sample-plugin
    args: {favorite_color: ssd, favorite_number: 101}
")
execute_process(COMMAND ${build}/sample-sim --config ${WORK_DIR}/bad-args.yaml --output json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(want "sample-sim: ${WORK_DIR}/bad-args.yaml: profiles[0].pluginConfig[0].args.favorite_number: Invalid value: 101: must be between 0 and 100, inclusive (plugin \"sample-plugin\", profile \"default-scheduler\")\n")
if(NOT rc EQUAL 2 OR NOT err STREQUAL want)
  message(FATAL_ERROR "sample-sim with bad args: exit ${rc}, stderr:\n${err}\nwanted exit 2 and:\n${want}")
endif()

# One iteration of its chain benchmark, the plugin in the chain.
run(${build}/sample-benchmark --config=${SAMPLE_SRC}/sample-sim.yaml --node-label=disktype=ssd|hdd
    --iterations=1 --benchmark_filter=nodes:1000)
string(FIND "${err}" "profile \"default-scheduler\" of ${SAMPLE_SRC}/sample-sim.yaml" at)
if(at EQUAL -1)
  message(FATAL_ERROR "sample-benchmark did not say which profile it ran:\n${err}")
endif()
string(REGEX MATCH "nodes:1000[^\n]*feasible=1" row "${out}")
if(NOT row)
  message(FATAL_ERROR "sample-benchmark ran no feasible cycle:\n${out}\n${err}")
endif()
message(STATUS "sample-plugin: built, tested, simulated and benchmarked against the installed package")
