# Turn a binary file into a C array (used for the compiled message catalogue).
# cmake -DIN=file -DOUT=file.c -DNAME=symbol -P bin2c.cmake
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" n)
math(EXPR bytes "${n} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){16})" "\\1\n    " body "${body}")
file(WRITE "${OUT}" "/* Generated from ${IN} by cmake/bin2c.cmake; do not edit. */\n"
  "#include <stddef.h>\n"
  "extern const unsigned char ${NAME}[];\nextern const size_t ${NAME}_len;\n"
  "const unsigned char ${NAME}[${bytes} + 1] = {\n    ${body}0x00\n};\n"
  "const size_t ${NAME}_len = ${bytes};\n")
