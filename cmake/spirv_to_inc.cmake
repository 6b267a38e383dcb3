# Writes the SPIR-V module IN (a binary file) to OUT as a C initializer of its 32-bit words, as
# `glslc -mfmt=c` does: for the modules spirv-opt writes (sort/CMakeLists.txt). cmake -DIN= -DOUT= -P
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" digits)
math(EXPR partial "${digits} % 8")
if(digits EQUAL 0 OR NOT partial EQUAL 0)
  message(FATAL_ERROR "${IN}: not a whole number of 32-bit words")
endif()
# Little-endian words, eight a line.
string(REGEX REPLACE "(..)(..)(..)(..)" "0x\\4\\3\\2\\1," words "${hex}")
string(REGEX REPLACE "((0x........,)(0x........,)(0x........,)(0x........,)(0x........,)(0x........,)(0x........,)(0x........,))" "\\1\n" words "${words}")
string(REGEX REPLACE ",\n?$" "" words "${words}")
file(WRITE "${OUT}" "{${words}}\n")
