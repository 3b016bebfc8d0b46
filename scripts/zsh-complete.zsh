#!/usr/bin/env zsh -f
# Prints the completions zsh offers for a command line, one a line, as a user pressing Tab would
# get them: an interactive zsh in a pseudo-terminal (zsh/zpty) loads the completion functions of
# DIRECTORY with compinit, the line is typed with a Tab after it, and compadd is wrapped so that
# the matches it is given (after zsh's own matching against the word) are printed instead of
# inserted (zshcompwid(1), "compadd -O").
#
#   zsh -f scripts/zsh-complete.zsh DIRECTORY 'hapscope summary --for'
emulate -L zsh
zmodload zsh/zpty || exit 1
(( $# == 2 )) || { print -u2 "usage: zsh-complete.zsh DIRECTORY 'command line'"; exit 2 }
local directory=$1 line=$2 out=""

zpty completion zsh -f -i
zpty -w completion "PS1='' PS2='' RPS1=''; fpath=(${(q)directory} \$fpath); autoload -Uz compinit; compinit -u -d /dev/null"
zpty -w completion 'compadd() {
  if (( ${@[(I)-[OAD]]} )); then builtin compadd "$@"; return; fi
  local -a matches
  builtin compadd -O matches "$@"
  local marker=MAT; marker+=CH:
  (( $#matches )) && print -r -- ${(@)matches/#/$marker} > /dev/tty
  return 1
}'

# Reads what the shell writes until it holds $1, for at most 10 seconds. The marker is typed
# split by quotes (READ''Y) so that its echo does not count.
await() {
  local chunk i
  for i in {1..100}; do
    zpty -rt completion chunk && out+=$chunk || sleep 0.1
    [[ $out == *$1* ]] && return 0
  done
  return 1
}

zpty -w completion "echo READ''Y"
await READY || { print -u2 "zsh-complete: the shell did not start"; zpty -d completion; exit 1 }
out=""
zpty -n -w completion "$line"$'\t'
zpty -n -w completion $'\C-u'"echo DO''NE"$'\n'
await DONE || { print -u2 "zsh-complete: no answer for '$line'"; zpty -d completion; exit 1 }
zpty -d completion
print -r -- "$out" | grep -ao 'MATCH:[^[:space:]]*' | sed 's/^MATCH://' | sort -u
