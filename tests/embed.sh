#!/bin/sh
# Turn a text file into a C string literal (one line a line), for embedding.
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$/\\n"/' "$1"
