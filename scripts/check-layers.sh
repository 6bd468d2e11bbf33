#!/usr/bin/env bash
# Fails when a source file includes a folder of src/ at its own layer or
# above (README "Layout": the picture of the layers). Public headers
# (toolguard/...) and a folder's own files may be included from anywhere.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

# The layer of each folder of src/, bottom (0) to top.
declare -A layer=(
  [json]=0 [regex]=0 [http]=0 [paths]=0
  [core]=1
  [shell]=2 [schema]=2 [chat]=2 [audit]=2
  [engine]=3 [approval]=3 [policy]=3
  [formats]=4 [limits]=4 [llm]=4 [agent]=4 [registry]=4 [store]=4
  [mcp]=5
  [cli]=6
  [serve]=7 [capi]=7
)

status=0
for dir in src/*/; do
  folder="$(basename "$dir")"
  if [ -z "${layer[$folder]+x}" ]; then
    echo "check-layers: src/$folder has no layer: add it to scripts/check-layers.sh and README's picture" >&2
    status=1
    continue
  fi
  while IFS=: read -r file line text; do
    target="$(sed -E 's/.*#include "(\.\.\/)?([a-z_]+)\/.*/\2/' <<<"$text")"
    [ "$target" = toolguard ] || [ "$target" = "$folder" ] && continue
    if [ -z "${layer[$target]+x}" ]; then
      echo "$file:$line: includes $target/, a folder with no layer" >&2
      status=1
    elif [ "${layer[$target]}" -ge "${layer[$folder]}" ]; then
      echo "$file:$line: $folder (layer ${layer[$folder]}) includes $target/ (layer ${layer[$target]}): only lower layers" >&2
      status=1
    fi
  done < <(grep -d skip -HnE '^#include "(\.\./)?[a-z_]+/' "$dir"* || true)
done
[ "$status" -eq 0 ] && echo "check-layers: every include of src/ points down"
exit "$status"
