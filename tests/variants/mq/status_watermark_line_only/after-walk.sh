set -e
grep -i "high watermark" status.txt > status.line
mv status.line status.txt
