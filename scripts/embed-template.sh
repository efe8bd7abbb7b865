#!/bin/sh
# Turns viewer/replay.html into src/replay_template.h: one C string literal per line of
# the page, so that rt_replay_write carries the page inside the library and needs no
# file at run time. Run it after every edit of the page (the Makefile should make
# src/replay_template.h depend on viewer/replay.html and this script).
#
# Why an array of lines and not one literal: ISO C only promises string literals of
# 4095 characters, and -Wpedantic (with -Werror) holds us to it. Each line of the page
# must therefore stay under 4000 characters, and the page must be ASCII.
# '?' is written as '\?' so that no "??x" in the JavaScript becomes a C trigraph.
#
# usage: sh scripts/embed-template.sh [viewer/replay.html [src/replay_template.h]]
set -eu
in=${1:-viewer/replay.html}
out=${2:-src/replay_template.h}

if LC_ALL=C grep -n '[^[:print:][:space:]]' "$in" >/dev/null; then
	echo "embed-template: $in has non-ASCII or control characters (keep the page ASCII):" >&2
	LC_ALL=C grep -n '[^[:print:][:space:]]' "$in" | head -5 >&2
	exit 1
fi
if ! grep -q '^/\*ROUT_DATA\*/$' "$in"; then
	echo "embed-template: $in has no line '/*ROUT_DATA*/' for the data" >&2
	exit 1
fi
long=$(awk 'length($0) > 4000 { print FILENAME ":" NR; exit }' "$in")
if [ -n "$long" ]; then
	echo "embed-template: $long is longer than 4000 characters" >&2
	exit 1
fi

tmp="$out.tmp"
{
	echo "/* Generated from $in by scripts/embed-template.sh: do not edit; edit the page"
	echo " * and run the script again. One string per line of the page, each with its"
	echo " * newline; the line that holds only the ROUT_DATA placeholder comment is where"
	echo " * rt_replay_write puts the data. */"
	echo "#ifndef RT_REPLAY_TEMPLATE_H"
	echo "#define RT_REPLAY_TEMPLATE_H"
	echo ""
	echo "static const char *const rt__replay_template[] = {"
	LC_ALL=C sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/\t/\\t/g' -e 's/\r$//' \
		-e 's/^/\t"/' -e 's/$/\\n",/' "$in"
	echo "};"
	echo ""
	echo "#endif"
} >"$tmp"
mv "$tmp" "$out"
