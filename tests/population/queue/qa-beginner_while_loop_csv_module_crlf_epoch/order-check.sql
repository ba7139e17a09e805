-- duplicated seq
SELECT a.order_no, a.seq, 'duplicate'
FROM processed a JOIN processed b
  ON a.order_no = b.order_no AND a.seq = b.seq AND a.msg_id < b.msg_id
UNION
-- missing seq: seq+1 is not there but the order goes on after it
SELECT a.order_no, a.seq + 1, 'missing'
FROM processed a
WHERE NOT EXISTS (SELECT 1 FROM processed b WHERE b.order_no = a.order_no AND b.seq = a.seq + 1)
  AND a.seq < (SELECT MAX(c.seq) FROM processed c WHERE c.order_no = a.order_no);
