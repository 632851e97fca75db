# Finds fmt, nlohmann_json, yaml-cpp, CLI11 and GoogleTest from the system, or
# from the carried folder GRAPHSAFE_DEPS_DIR (include/, lib/, googletest/),
# which machines without Debian's -dev packages use.
set(GRAPHSAFE_DEPS_DIR "" CACHE PATH "Folder with carried dependencies (scripts/device-deps.sh)")

function(graphsafe_carried_interface Target Header)
  if(NOT GRAPHSAFE_DEPS_DIR OR NOT EXISTS ${GRAPHSAFE_DEPS_DIR}/include/${Header})
    message(FATAL_ERROR "${Target} not found: install its Debian package (scripts/setup-debian.sh "
                        "does) or pass -DGRAPHSAFE_DEPS_DIR=<folder made by scripts/device-deps.sh>")
  endif()
  add_library(${Target} INTERFACE IMPORTED GLOBAL)
  target_include_directories(${Target} INTERFACE ${GRAPHSAFE_DEPS_DIR}/include)
endfunction()

find_package(fmt QUIET)
if(NOT fmt_FOUND)
  graphsafe_carried_interface(fmt::fmt fmt/format.h)
  target_compile_definitions(fmt::fmt INTERFACE FMT_HEADER_ONLY=1)
endif()

find_package(nlohmann_json 3.10 QUIET)
if(NOT nlohmann_json_FOUND)
  graphsafe_carried_interface(nlohmann_json::nlohmann_json nlohmann/json.hpp)
endif()

find_package(CLI11 CONFIG QUIET)
if(NOT CLI11_FOUND)
  graphsafe_carried_interface(CLI11::CLI11 CLI/CLI.hpp)
endif()

find_package(yaml-cpp QUIET)
if(NOT yaml-cpp_FOUND)
  graphsafe_carried_interface(yaml-cpp yaml-cpp/yaml.h)
  file(GLOB _yaml_lib ${GRAPHSAFE_DEPS_DIR}/lib/libyaml-cpp.so*)
  list(SORT _yaml_lib)
  list(GET _yaml_lib 0 _yaml_lib)
  target_link_libraries(yaml-cpp INTERFACE ${_yaml_lib})
  # An installed graphcheck takes its carried yaml-cpp along, next to its own
  # libraries (its RPATH is $ORIGIN/../lib).
  install(FILES ${_yaml_lib} DESTINATION lib FOLLOW_SYMLINK_CHAIN)
endif()

if(GRAPHSAFE_BUILD_TESTS)
  find_package(GTest QUIET)
  if(NOT GTest_FOUND)
    if(NOT GRAPHSAFE_DEPS_DIR OR NOT EXISTS ${GRAPHSAFE_DEPS_DIR}/googletest/CMakeLists.txt)
      message(FATAL_ERROR "GoogleTest not found: install googletest (scripts/setup-debian.sh does), "
                          "pass -DGRAPHSAFE_DEPS_DIR=<folder with googletest/>, or configure with "
                          "-DGRAPHSAFE_BUILD_TESTS=OFF")
    endif()
    set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
    set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
    add_subdirectory(${GRAPHSAFE_DEPS_DIR}/googletest ${CMAKE_BINARY_DIR}/googletest EXCLUDE_FROM_ALL)
    if(NOT TARGET GTest::gtest_main) # Newer GoogleTest defines these itself.
      add_library(GTest::gtest ALIAS gtest)
      add_library(GTest::gtest_main ALIAS gtest_main)
    endif()
  endif()
endif()
