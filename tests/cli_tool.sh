#!/bin/sh
# `proper` itself: the command list, the version, and what an unknown command
# or option gets (a message naming it, exit 2).
. "$(dirname "$0")/cli_lib.sh"

run_proper --help
status_is tool_help 0 && contains tool_help "$T/out" "usage: proper COMMAND" &&
    check tool_help_lists_commands sh -c "for c in synth analyze trace pmf sre check crosscheck vlmc qn sim lp annot version; do
        grep -q \"^  \$c  *[a-zA-Z]\" '$T/out' || exit 1; done"
expect_text tool_help_short 0 "usage: proper COMMAND" "$PROPER" -h

# the version is the one core.h defines
v=$(sed -n 's/^#define PROPER_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$/\2/p' src/core.h | paste -sd.)
run_proper --version
status_is tool_version 0 && check tool_version [ "$(cat "$T/out")" = "proper $v" ]
run_proper version
status_is tool_version_command 0 && check tool_version_command [ "$(cat "$T/out")" = "proper $v" ]

expect_error tool_unknown_command "proper: unknown command 'frobnicate' (see 'proper --help')" "$PROPER" frobnicate
expect_error tool_unknown_option "proper: unknown option '--bogus' (see 'proper --help')" "$PROPER" --bogus
run_proper
status_is tool_no_command 2 && contains tool_no_command "$T/err" "usage: proper COMMAND"
