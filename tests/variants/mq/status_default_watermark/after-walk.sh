set -e
sed -i 's/Memory high watermark setting: .*/Memory high watermark setting: 0.4 of available memory, computed to: 3.3514 gb/' status.txt
grep -q "0.4 of available memory" status.txt
