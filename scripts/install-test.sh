#!/usr/bin/env bash
# The install test of `make test`: `make install` into a scratch DESTDIR, then what a user does
# with what it installed — run the binary on a bundled capture, read the manual pages (groff with
# every warning on, and man), complete command lines in bash (a non-interactive bash that sources
# the completion) and in zsh (scripts/zsh-complete.zsh) — and `make uninstall`.
#
# It installs the debug build `make test` made (CONFIGURATION=debug with the same SWIFT_BUILD_FLAGS,
# so nothing is rebuilt); CONFIGURATION=release tries the release build.
set -euo pipefail
cd "$(dirname "$0")/.."

make=${MAKE:-make}
configuration=${CONFIGURATION:-debug}
prefix=/usr/local
scratch=$(mktemp -d -t hapscope-install-test.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
root=$scratch$prefix
failures=0

fail() {
    echo "install-test: FAIL: $*" >&2
    failures=$((failures + 1))
}

# expect NAME ACTUAL EXPECTED: one check, shown as it is made.
expect() {
    if [ "$2" = "$3" ]; then
        echo "install-test: ok: $1: $(echo "$2" | tr '\n' ' ')"
    else
        fail "$1: expected '$(echo "$3" | tr '\n' ' ')', got '$(echo "$2" | tr '\n' ' ')'"
    fi
}

"$make" --no-print-directory install DESTDIR="$scratch" PREFIX="$prefix" CONFIGURATION="$configuration" \
    SWIFT_BUILD_FLAGS="${SWIFT_BUILD_FLAGS:-}"

installed="bin/hapscope bin/hapbench share/man/man1/hapscope.1 share/man/man1/hapbench.1
share/bash-completion/completions/hapscope share/zsh/site-functions/_hapscope"
for file in $installed; do
    [ -f "$root/$file" ] || fail "make install did not install $prefix/$file"
done
[ -x "$root/bin/hapscope" ] && [ -x "$root/bin/hapbench" ] || fail "the installed binaries are not executable"

# The installed binary, on a bundled capture, and its version.
hapscope=$root/bin/hapscope
summary=$("$hapscope" summary captures/bridge.pcap --keylog captures/bridge.keylog --no-color) || fail "hapscope summary failed"
grep -q 'decrypted both directions' <<<"$summary" || fail "the installed hapscope did not decrypt captures/bridge.pcap"
expected_commit=unknown
if [ -e .git ] && commit=$(git rev-parse --short HEAD 2>/dev/null); then expected_commit=$commit; fi
version=$("$hapscope" --version)
[[ $version =~ ^hapscope\ [0-9]+\.[0-9]+\.[0-9]+\ \(commit\ ${expected_commit}\)$ ]] \
    && echo "install-test: ok: $version" || fail "--version says '$version', not the version and commit $expected_commit"

# The manual pages: no groff warning (-ww enables them all), and man renders them.
for page in hapscope hapbench; do
    file=$root/share/man/man1/$page.1
    # Shown on the script's own standard error, not through `tee /dev/stderr`: reopening
    # /dev/stderr truncates a log file that `make test > log` writes to.
    groff_warnings=$(groff -ww -man -Tutf8 "$file" 2>&1 >/dev/null)
    warnings=0
    if [ -n "$groff_warnings" ]; then
        printf '%s\n' "$groff_warnings" >&2
        warnings=$(printf '%s\n' "$groff_warnings" | wc -l)
    fi
    expect "groff -ww warnings in $page.1" "$warnings" 0
    rendered=$(MANWIDTH=80 man --warnings=all -l "$file" 2>"$scratch/man-errors")
    [ -s "$scratch/man-errors" ] && fail "man -l $page.1: $(cat "$scratch/man-errors")"
    grep -q "^NAME" <<<"$rendered" && grep -q "^SYNOPSIS" <<<"$rendered" || fail "man -l $page.1 rendered no NAME and SYNOPSIS"
done
man_page=$(MANWIDTH=80 man -l "$root/share/man/man1/hapscope.1")
for section in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS LIMITS ENVIRONMENT "EXIT STATUS" FILES EXAMPLES "SEE ALSO"; do
    grep -q "^$section\$" <<<"$man_page" || fail "hapscope(1) has no $section section"
done
# man finds the page where it was installed.
MANPATH=$root/share/man man -w hapscope >/dev/null || fail "man -w hapscope does not find the installed page"

# The bash completion, sourced into a non-interactive bash: the completions of a command line are
# what the completion function leaves in COMPREPLY with COMP_WORDS and COMP_CWORD set as bash sets
# them (the last word is the one being completed; bash splits --name=value at the '=').
bash_completion=$root/share/bash-completion/completions/hapscope
bash_complete() {
    bash --norc --noprofile -c '
        source "$1" || exit 1
        shift
        COMP_WORDS=("$@")
        COMP_CWORD=$(($# - 1))
        COMP_LINE="$*"
        COMP_POINT=${#COMP_LINE}
        _hapscope
        (( ${#COMPREPLY[@]} )) && printf "%s\n" "${COMPREPLY[@]}" | sort
        exit 0' bash "$bash_completion" "$@"
}
expect "bash: complete -p hapscope" "$(bash --norc --noprofile -c "source '$bash_completion'; complete -p hapscope")" \
    "complete -F _hapscope hapscope"
expect "bash: hapscope su" "$(bash_complete hapscope su)" "summary"
expect "bash: hapscope summary --for" "$(bash_complete hapscope summary --for)" "--format"

# What the table says, from the installed binary's help: the values of --format and the limits.
format_values() { "$hapscope" "$1" --help | sed -n 's/^  --format FORMAT .*(\([a-z|]*\))$/\1/p' | tr '|' '\n' | sort; }
limits_starting() { "$hapscope" help limits | awk 'NR > 1 { print $1 "=" }' | grep "^$1" | sort; }
expect "bash: hapscope summary --format" "$(bash_complete hapscope summary --format '')" "$(format_values summary)"
expect "bash: hapscope check --format=" "$(bash_complete hapscope check --format = '')" "$(format_values check)"
expect "bash: hapscope --limit tcp.c" "$(bash_complete hapscope --limit tcp.c)" "$(limits_starting tcp.c)"
expect "bash: hapscope --keylog captures/bridge.k" "$(bash_complete hapscope --keylog captures/bridge.k)" "captures/bridge.keylog"
expect "bash: hapscope captures/bridge.p" "$(bash_complete hapscope captures/bridge.p)" "captures/bridge.pcap"
expect "bash: hapscope live -i l offers lo" "$(bash_complete hapscope live -i l | grep -x lo)" "lo"
expect "bash: hapscope help li" "$(bash_complete hapscope help li)" "$(printf 'limits\nlive')"

# The zsh completion, autoloaded by compinit in an interactive zsh on a pseudo-terminal.
zsh_functions=$root/share/zsh/site-functions
zsh -n "$zsh_functions/_hapscope" || fail "_hapscope is not valid zsh"
zsh_complete() { zsh -f scripts/zsh-complete.zsh "$zsh_functions" "$1"; }
expect "zsh: hapscope su" "$(zsh_complete 'hapscope su')" "summary"
expect "zsh: hapscope summary --for" "$(zsh_complete 'hapscope summary --for')" "--format"
expect "zsh: hapscope check --format=" "$(zsh_complete 'hapscope check --format=')" "$(format_values check)"
expect "zsh: hapscope --limit tcp.c" "$(zsh_complete 'hapscope --limit tcp.c')" "$(limits_starting tcp.c)"
expect "zsh: hapscope live -i l offers lo" "$(zsh_complete 'hapscope live -i l' | grep -x lo)" "lo"

# Uninstall removes every file it installed.
"$make" --no-print-directory -s uninstall DESTDIR="$scratch" PREFIX="$prefix"
for file in $installed; do
    [ ! -e "$root/$file" ] || fail "make uninstall left $prefix/$file"
done

if [ "$failures" -gt 0 ]; then
    echo "install-test: $failures check(s) failed" >&2
    exit 1
fi
echo "install-test: everything installed, worked and was uninstalled"
