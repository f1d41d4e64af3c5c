# tkc.cmake — tkc_add_kernel(): generate a C header from a .tk file at build time.
#
#   tkc_add_kernel(<target> FILE.tk
#                  [TARGETS c cuda]          # --target (default: c)
#                  [KERNELS name ...]        # --kernel (default: every kernel of FILE)
#                  [DEFINES NAME=VALUE ...]  # -D: const parameters, specialized dims
#                  [TUNE M=..,N=.. ...]      # --max-autotune, one --tune per shape
#                  [TUNE_TABLE FILE.tktune]  # --tune-table
#                  [ARCH sm_90a]             # --arch (cuda)
#                  [INCLUDE_DIRS dir ...]    # -I: where imports are searched
#                  [OPTIONS flag ...]        # anything else for tkc
#                  [OUTPUT name.h])          # default: FILE's name with .h
#
# The header is written to ${CMAKE_CURRENT_BINARY_DIR}/tkc/ (or to OUTPUT when
# it is absolute), that directory is added to <target>'s include path, and
# the header is rebuilt when FILE.tk, any file it imports (tkc -MF depfile)
# or tkc itself changes.  <target> also gets OpenMP (when CMake finds it),
# libm, and for TARGETS cuda the dynamic loader library (libcuda.so.1 is
# opened at run time).  Several calls may share a target; give each header
# its own OUTPUT when they come from one .tk file.
function(tkc_add_kernel target file)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "OUTPUT;ARCH;TUNE_TABLE"
                        "TARGETS;KERNELS;DEFINES;TUNE;INCLUDE_DIRS;OPTIONS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tkc_add_kernel: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "tkc_add_kernel: no target '${target}' (call add_executable/add_library first)")
  endif()
  get_filename_component(src "${file}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  get_filename_component(stem "${file}" NAME_WE)
  if(NOT arg_OUTPUT)
    set(arg_OUTPUT "${stem}.h")
  endif()
  get_filename_component(out "${arg_OUTPUT}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}/tkc")
  get_filename_component(outdir "${out}" DIRECTORY)
  get_filename_component(outname "${out}" NAME)
  set(dep "${out}.d")

  set(flags)
  if(arg_TARGETS)
    string(REPLACE ";" "," t "${arg_TARGETS}")
    list(APPEND flags "--target=${t}")
  endif()
  if(arg_KERNELS)
    string(REPLACE ";" "," k "${arg_KERNELS}")
    list(APPEND flags "--kernel=${k}")
  endif()
  foreach(d IN LISTS arg_DEFINES)
    list(APPEND flags -D "${d}")
  endforeach()
  if(arg_TUNE)
    list(APPEND flags --max-autotune)
    foreach(s IN LISTS arg_TUNE)
      list(APPEND flags --tune "${s}")
    endforeach()
  endif()
  if(arg_TUNE_TABLE)
    get_filename_component(tt "${arg_TUNE_TABLE}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND flags --tune-table "${tt}")
  endif()
  if(arg_ARCH)
    list(APPEND flags "--arch=${arg_ARCH}")
  endif()
  foreach(i IN LISTS arg_INCLUDE_DIRS)
    get_filename_component(i "${i}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND flags -I "${i}")
  endforeach()
  list(APPEND flags ${arg_OPTIONS})

  file(MAKE_DIRECTORY "${outdir}")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND tkc::tkc "${src}" ${flags} -o "${out}" -MF "${dep}"
    DEPENDS "${src}" "${tkc_EXECUTABLE}"
    DEPFILE "${dep}"
    COMMENT "tkc ${file} -> ${outname}"
    VERBATIM)
  target_sources(${target} PRIVATE "${out}")
  target_include_directories(${target} PRIVATE "${outdir}")

  if(NOT DEFINED OpenMP_C_FOUND)
    find_package(OpenMP QUIET COMPONENTS C)
  endif()
  if(TARGET OpenMP::OpenMP_C)
    target_link_libraries(${target} PRIVATE OpenMP::OpenMP_C)
  endif()
  if(UNIX)
    target_link_libraries(${target} PRIVATE m)
  endif()
  if("cuda" IN_LIST arg_TARGETS)
    target_link_libraries(${target} PRIVATE ${CMAKE_DL_LIBS})
  endif()
endfunction()
