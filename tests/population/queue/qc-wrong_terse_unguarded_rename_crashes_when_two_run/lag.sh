#!/bin/bash
n(){ find "$1/$2" -maxdepth 1 -type f|wc -l;}
i=$(n "$1" inbox);echo "inbox=$i processing=$(n "$1" processing) error=$(n "$1" error)";[ "$i" -le "$2" ]
