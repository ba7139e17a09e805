mkdir -p /root/q/inbox /root/q/processing /root/q/done /root/q/error
cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/
ls /root/q/inbox | wc -l
for f in schema.csv consume.py order-check.sql lag.sh replay.sh; do cp "$SUBMISSION/$f" /root/q/; done
chmod +x /root/q/lag.sh /root/q/replay.sh
cd /root/q
python3 consume.py | tee out.txt
ls done | wc -l; ls error | wc -l; ls processing | wc -l
sed -n 's/^.*: duplicate //p' out.txt | sort > dup.txt
printf 'file,reason\n' > error.csv
grep -E ': (parse|missing-field)$' out.txt | sed 's/: /,/' >> error.csv
cat dup.txt error.csv
sqlite3 ledger.db < order-check.sql > order-result.txt
[ -s order-result.txt ] || echo OK > order-result.txt
cat order-result.txt
./lag.sh /root/q 0; echo $?
./replay.sh msg-0017.json && python3 consume.py
ls error
