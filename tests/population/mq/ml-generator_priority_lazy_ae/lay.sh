mkdir -p /root/eaimw/mq
cd /root/eaimw/mq
# step 1 — saved with a one-liner so the file gets exactly the bytes rabbitmqctl wrote
python3 -c 'import subprocess; open("/root/eaimw/mq/status.txt","wb").write(subprocess.run(["rabbitmqctl","-n","rabbit@localhost","status"],stdout=subprocess.PIPE,check=True).stdout)'
grep -a "high watermark" status.txt
cp "$SUBMISSION"/topology.py "$SUBMISSION"/publish.py "$SUBMISSION"/consumer.py .
python3 topology.py
python3 topology.py
python3 publish.py /opt/lab/fixtures/eaimw/mq/claims/clm-1468.json
python3 publish.py /opt/lab/fixtures/eaimw/mq/claims/busy-1471.json
