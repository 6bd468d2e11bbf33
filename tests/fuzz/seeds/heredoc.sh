cat <<EOF | sh
$(id)
EOF
