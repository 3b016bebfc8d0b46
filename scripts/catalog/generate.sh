#!/bin/sh
# Regenerates the HAP catalogue tables in Sources/HAPCatalog from the TSV files in data/.
#
#   scripts/catalog/generate.sh           rewrite the generated Swift files
#   scripts/catalog/generate.sh --check   exit 1 if the committed files differ from what the data gives
set -eu

here=$(cd "$(dirname "$0")" && pwd)
sources=$(cd "$here/../../Sources/HAPCatalog" && pwd)
export LC_ALL=C

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

generate() { # generate <awk program> <tsv> <swift file>
    awk -f "$here/common.awk" -f "$here/$1" "$here/data/$2" > "$scratch/$3"
}

generate characteristics.awk characteristics.tsv CharacteristicTable.swift
generate services.awk services.tsv ServiceTable.swift
generate categories.awk categories.tsv CategoryTable.swift

if [ "${1:-}" = "--check" ]; then
    status=0
    for file in CharacteristicTable.swift ServiceTable.swift CategoryTable.swift; do
        diff -u "$sources/$file" "$scratch/$file" || status=1
    done
    exit $status
fi

for file in CharacteristicTable.swift ServiceTable.swift CategoryTable.swift; do
    cp "$scratch/$file" "$sources/$file"
done
