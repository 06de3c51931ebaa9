# Cross-compiling the runtime for AArch64 Linux with the host LLVM's clang
# and Debian's cross sysroot (gcc-aarch64-linux-gnu, libc6-dev-arm64-cross):
#   cmake -S . -B build/aarch64-rt -DHRACE_RUNTIME_ONLY=ON \
#     -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
#     -DHRACE_HOST_CLANG=/usr/lib/llvm-14/bin/clang \
#     -DLLVM_TOOLS_BINARY_DIR=/usr/lib/llvm-14/bin
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
if(NOT HRACE_HOST_CLANG)
  set(HRACE_HOST_CLANG clang)
endif()
set(CMAKE_C_COMPILER ${HRACE_HOST_CLANG})
set(CMAKE_CXX_COMPILER ${HRACE_HOST_CLANG}++)
set(CMAKE_C_COMPILER_TARGET aarch64-linux-gnu)
set(CMAKE_CXX_COMPILER_TARGET aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
# A static archive needs no link test.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
