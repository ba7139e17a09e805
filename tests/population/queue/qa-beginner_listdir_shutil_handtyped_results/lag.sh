# usage: bash lag.sh /root/q 10
dir=$1
limit=$2
if [ -z "$dir" ] || [ -z "$limit" ]; then
  echo "usage: lag.sh QUEUE_DIR THRESHOLD"
  exit 2
fi
inbox=$(find "$dir/inbox" -maxdepth 1 -type f | wc -l)
processing=$(find "$dir/processing" -maxdepth 1 -type f | wc -l)
error=$(find "$dir/error" -maxdepth 1 -type f | wc -l)
echo "inbox=$inbox processing=$processing error=$error"
if [ $inbox -gt $limit ]; then
  exit 1
fi
exit 0
