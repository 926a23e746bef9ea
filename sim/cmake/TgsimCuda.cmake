# Kernel files (.cu, .metal) compiled by tgsim's front end: tgsim-prepare does the <<<...>>>
# rewrite or the Metal adapter, then runs Clang 14 with tgsim's pass.
#   tgsim_add_cuda_library(TARGET FILE...)     a static library of kernels; link it with tgsim::sim
#                                              and launch them with tgsim::launch or <<<...>>>
#   tgsim_add_cuda_executable(TARGET FILE...)  a program from .cu files (one holds main())
# TGSIM_PREPARE_COMMAND and TGSIM_PREPARE_DEPENDS say where tgsim-prepare is (the build tree's
# target, or the installed program; set by tgsim's CMakeLists or tgsimConfig.cmake).
function(_tgsim_cuda_objects out target)
  set(objects)
  foreach(src ${ARGN})
    get_filename_component(abs ${src} ABSOLUTE)
    get_filename_component(name ${src} NAME)
    set(obj ${CMAKE_CURRENT_BINARY_DIR}/${target}.dir/${name}.o)
    add_custom_command(OUTPUT ${obj}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/${target}.dir
      COMMAND ${TGSIM_PREPARE_COMMAND} --compile ${abs} ${obj} ${obj}.d
      DEPENDS ${abs} ${TGSIM_PREPARE_DEPENDS}
      DEPFILE ${obj}.d
      COMMENT "tgsim front end: ${name}"
      VERBATIM)
    list(APPEND objects ${obj})
  endforeach()
  set(${out} ${objects} PARENT_SCOPE)
endfunction()

function(tgsim_add_cuda_library target)
  _tgsim_cuda_objects(objects ${target} ${ARGN})
  add_library(${target} STATIC ${objects})
  set_target_properties(${target} PROPERTIES LINKER_LANGUAGE CXX)
  target_link_libraries(${target} PUBLIC tgsim::sim)
  # The modules' constructors register their kernels: keep every object linked.
  target_link_options(${target} INTERFACE "LINKER:--whole-archive,$<TARGET_FILE:${target}>,--no-whole-archive")
endfunction()

function(tgsim_add_cuda_executable target)
  _tgsim_cuda_objects(objects ${target} ${ARGN})
  add_executable(${target} ${objects})
  set_target_properties(${target} PROPERTIES LINKER_LANGUAGE CXX)
  target_link_libraries(${target} PRIVATE tgsim::sim)
endfunction()
