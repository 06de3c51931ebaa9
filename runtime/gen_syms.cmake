# Writes a linker dynamic list naming every interceptor defined in SOURCES
# (a |-separated list of files).
string(REPLACE "|" ";" sources "${SOURCES}")
set(names "")
foreach(src ${sources})
  file(STRINGS ${src} lines REGEX "^INTERCEPTOR_ATTRIBUTE")
  foreach(line ${lines})
    if(line MATCHES "([A-Za-z_][A-Za-z_0-9]*)\\(")
      list(APPEND names ${CMAKE_MATCH_1})
    endif()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES names)
list(SORT names)
set(out "{\n")
foreach(n ${names})
  string(APPEND out "  ${n};\n")
endforeach()
# The runtime's entry points too, so an instrumented library loaded with
# dlopen finds them in the executable.
string(APPEND out "  __hrace_*;\n  __tsan_*;\n  __sanitizer_unaligned_*;\n  Annotate*;\n  WTFAnnotate*;\n  RunningOnValgrind;\n")
string(APPEND out "  extern \"C++\" {\n    \"operator new*\";\n    \"operator delete*\";\n  };\n};\n")
file(WRITE ${OUTPUT} "${out}")
