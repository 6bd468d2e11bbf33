X=rm; $X -rf ~; d=/; rm -rf "$d"; readonly R=/; R=x; unset U; rm ${U:-/} ${#X}; set -- a b; shift; echo "$@" "$*"
