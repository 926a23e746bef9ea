# tgsim_add_cuda_library(TARGET FILE...): a static library of kernel files (.cu, .metal) compiled
# by tgsim's front end (tgsim-prepare: the <<<...>>> rewrite or the Metal adapter, then Clang 14
# with tgsim's pass). Link it into a program with tgsim::sim; its kernels register themselves
# and run through tgsim::launch or <<<...>>>.
# tgsim_add_cuda_executable(TARGET FILE...): the same files as a program (a .cu with its main()).
function(tgsim_add_cuda_library target)
  set(objects)
  foreach(src ${ARGN})
    get_filename_component(abs ${src} ABSOLUTE)
    get_filename_component(name ${src} NAME)
    set(obj ${CMAKE_CURRENT_BINARY_DIR}/${target}.dir/${name}.o)
    add_custom_command(OUTPUT ${obj}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/${target}.dir
      COMMAND $<TARGET_FILE:tgsim-prepare> --compile ${abs} ${obj} ${obj}.d
      DEPENDS ${abs} tgsim-prepare tgsim_pass
      DEPFILE ${obj}.d
      COMMENT "tgsim front end: ${name}"
      VERBATIM)
    list(APPEND objects ${obj})
  endforeach()
  add_library(${target} STATIC ${objects})
  set_target_properties(${target} PROPERTIES LINKER_LANGUAGE CXX)
  target_link_libraries(${target} PUBLIC tgsim::sim)
  # The modules' constructors register their kernels: keep every object linked.
  target_link_options(${target} INTERFACE "LINKER:--whole-archive,$<TARGET_FILE:${target}>,--no-whole-archive")
endfunction()

function(tgsim_add_cuda_executable target)
  tgsim_add_cuda_library(${target}_kernels ${ARGN})
  add_executable(${target} ${PROJECT_SOURCE_DIR}/sim/cmake/empty.cpp)
  target_link_libraries(${target} PRIVATE ${target}_kernels)
endfunction()
