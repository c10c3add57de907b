# A text file for Windows Notepad: UTF-8 with a byte-order mark and CRLF line ends.
# cmake -DIN=... -DOUT=... -P crlf-bom.cmake
file(READ ${IN} text)
string(REPLACE "\r\n" "\n" text "${text}")
string(REPLACE "\n" "\r\n" text "${text}")
string(ASCII 239 187 191 bom)
file(WRITE ${OUT} "${bom}${text}")
