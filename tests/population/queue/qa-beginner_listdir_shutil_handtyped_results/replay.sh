# usage: bash replay.sh msg-0006.json
name="$1"
if [ -z "$name" ]; then
  echo "give me a file name"
  exit 1
fi
# only plain names, no paths (found this on stackoverflow)
if [ "$(basename -- "$name")" != "$name" ]; then
  echo "only a file name please, not a path"
  exit 1
fi
if [ ! -f "/root/q/error/$name" ]; then
  echo "$name is not in error folder"
  exit 1
fi
mv "/root/q/error/$name" "/root/q/inbox/$name"
echo "moved $name back to inbox"
