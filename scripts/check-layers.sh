#!/usr/bin/env bash
# Fails when a source file includes a folder of src/ at its own layer or
# above (README "Layout": the picture of the layers). Public headers
# (toolguard/...) and a folder's own files may be included from anywhere.
# The build enforces the same order (cmake/library_layers.cmake: each layer
# sees only the folders it names); this check needs no build.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

# The layer of each folder of src/, bottom (0) to top.
declare -A layer=(
  [json]=0 [regex]=0 [http]=0
  [core]=1
  [paths]=2 [schema]=2 [chat]=2 [audit]=2 [sandbox]=2
  [shell_parse]=3
  [shell_unwrap]=4
  [commands]=5
  [rules]=6
  [engine]=7 [approval]=7 [policy]=7
  [session]=8 [foreign_policy]=8 [limits]=8 [llm]=8 [agent]=8 [registry]=8
  [policy_loader]=9 [guard]=9 [store]=9
  [mcp]=10
  [front]=11 [command_line]=11
  [cli]=12 [capi]=12
  [serve]=13
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
