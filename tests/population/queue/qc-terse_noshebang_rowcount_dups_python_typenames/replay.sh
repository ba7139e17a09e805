case $1 in ''|*/*|.|..)exit 1;;esac
[ -f "/root/q/error/$1" ]&&mv "/root/q/error/$1" /root/q/inbox/
