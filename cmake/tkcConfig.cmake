# tkcConfig.cmake — find_package(tkc) for the tkc tile-kernel compiler.
#
# Installed to PREFIX/lib/cmake/tkc by `make install`; everything is found
# relative to this file, so the install tree may be moved.  Provides
#   tkc::tkc            the compiler, an imported executable
#   tkc_EXECUTABLE      its path
#   tkc_STDLIB_DIR      PREFIX/share/tkc/stdlib
#   tkc_add_kernel()    see tkc.cmake
if(CMAKE_VERSION VERSION_LESS 3.20)
  message(FATAL_ERROR "tkc's CMake package needs CMake 3.20 or newer (DEPFILE)")
endif()

get_filename_component(_tkc_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(tkc_EXECUTABLE "${_tkc_prefix}/bin/tkc")
set(tkc_STDLIB_DIR "${_tkc_prefix}/share/tkc/stdlib")
unset(_tkc_prefix)

if(NOT EXISTS "${tkc_EXECUTABLE}")
  set(tkc_FOUND FALSE)
  set(tkc_NOT_FOUND_MESSAGE "no tkc at ${tkc_EXECUTABLE}")
  return()
endif()

if(NOT TARGET tkc::tkc)
  add_executable(tkc::tkc IMPORTED)
  set_target_properties(tkc::tkc PROPERTIES IMPORTED_LOCATION "${tkc_EXECUTABLE}")
endif()

include("${CMAKE_CURRENT_LIST_DIR}/tkc.cmake")
