#!/bin/bash
c(){ local a=("$1"/* "$1"/.*) n=0;for x in "${a[@]}";do [[ -f $x && ! -L $x ]]&&((n++));done;echo $n;}
i=$(c "$1/inbox");echo "inbox=$i processing=$(c "$1/processing") error=$(c "$1/error")";((i<=$2))
