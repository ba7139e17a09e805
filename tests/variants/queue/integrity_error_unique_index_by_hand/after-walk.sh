set -e
export LC_ALL=C
awk '$5 == "DUP" {print $6}' consume.log | sort -u > dup.txt
{ echo "file,reason"; awk '$5 == "ERR" {print "error/" $7 "," $6}' consume.log; } > error.csv
